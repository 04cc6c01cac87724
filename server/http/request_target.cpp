#include "http/request_target.h"

#include <array>
#include <string_view>

#include "http/header_text.h"

namespace outpost::server {

namespace {

constexpr std::array<std::string_view, 2> kSchemes = {"http://", "https://"};

bool startsWithNoCase(std::string_view text, std::string_view prefix) {
    return text.size() >= prefix.size() &&
           equalsIgnoringCase(text.substr(0, prefix.size()), prefix);
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
