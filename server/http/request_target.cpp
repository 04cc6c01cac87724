#include "http/request_target.h"

#include <array>
#include <cctype>

namespace outpost::server {

namespace {

constexpr std::array<std::string_view, 2> kSchemes = {"http://", "https://"};

bool startsWithNoCase(std::string_view text, std::string_view prefix) {
    if (text.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
    }
    return true;
}

}  // namespace

std::optional<OriginForm> originFormOf(std::string_view target) {
    for (const std::string_view scheme : kSchemes) {
        if (!startsWithNoCase(target, scheme)) continue;
        const std::string_view rest = target.substr(scheme.size());
        const std::size_t end = rest.find_first_of("/?#");
        OriginForm form;
        form.authority = std::string(rest.substr(0, end));
        if (form.authority.empty()) return std::nullopt;
        const std::string_view tail = end == std::string_view::npos ? "" : rest.substr(end);
        form.target = tail.starts_with('/') ? std::string(tail) : "/" + std::string(tail);
        return form;
    }
    return std::nullopt;
}

}  // namespace outpost::server
