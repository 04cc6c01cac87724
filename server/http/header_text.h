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
