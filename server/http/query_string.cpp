#include "http/query_string.h"

namespace outpost::server {

namespace {

constexpr int kHexBase = 16;

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

std::optional<std::string> queryDecode(std::string_view text) {
    std::string decoded;
    decoded.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+') {
            decoded += ' ';
        } else if (text[i] != '%') {
            decoded += text[i];
        } else {
            if (i + 2 >= text.size()) return std::nullopt;
            const int high = hexValue(text[i + 1]);
            const int low = hexValue(text[i + 2]);
            if (high < 0 || low < 0) return std::nullopt;
            decoded += static_cast<char>(high * kHexBase + low);
            i += 2;
        }
    }
    return decoded;
}

std::optional<QueryParameters> queryParameters(std::string_view target) {
    const std::size_t mark = target.find('?');
    std::string_view query = mark == std::string_view::npos ? "" : target.substr(mark + 1);
    query = query.substr(0, query.find('#'));
    QueryParameters parameters;
    while (!query.empty()) {
        const std::size_t amp = query.find('&');
        const std::string_view parameter = query.substr(0, amp);
        query = amp == std::string_view::npos ? "" : query.substr(amp + 1);
        if (parameter.empty()) continue;
        const std::size_t eq = parameter.find('=');
        auto name = queryDecode(parameter.substr(0, eq));
        auto value = queryDecode(eq == std::string_view::npos ? "" : parameter.substr(eq + 1));
        if (!name || !value) return std::nullopt;
        parameters.emplace_back(std::move(*name), std::move(*value));
    }
    return parameters;
}

}  // namespace outpost::server
