// Small helpers for the text of HTTP header values.
#pragma once

#include <string>
#include <string_view>

namespace outpost::server {

// `text` without the spaces and tabs (optional whitespace, RFC 9110) at either end.
inline std::string_view trimHeaderSpace(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

// Calls `each` with every element of a comma-separated list (RFC 9110 5.6.1: a header value
// such as Accept or Transfer-Encoding, or a list of names), each trimmed of its optional
// whitespace; empty elements (`a,,b`, a trailing comma) are skipped, as the RFC asks.
template <typename Each>
void forEachListItem(std::string_view list, Each each) {
    while (!list.empty()) {
        const std::size_t comma = list.find(',');
        const std::string_view item = trimHeaderSpace(list.substr(0, comma));
        if (!item.empty()) each(item);
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
}

// Whether `a` and `b` are equal but for the case of ASCII letters.
inline bool equalsIgnoringCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto lower = [](char c) {
            return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
        };
        if (lower(a[i]) != lower(b[i])) return false;
    }
    return true;
}

// `text` with ASCII letters in lower case (header field values, media types, codings and hosts
// compare case-insensitively; other bytes are left as they are).
inline std::string lowerAscii(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

}  // namespace outpost::server
