// Small helpers for the text of HTTP header values.
#pragma once

#include <string_view>

namespace outpost::server {

// `text` without the spaces and tabs (optional whitespace, RFC 9110) at either end.
inline std::string_view trimHeaderSpace(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

}  // namespace outpost::server
