#include "http/host_field.h"

namespace outpost::server {

namespace {

constexpr unsigned kHostRequiredFrom = 11;  // Beast's version number of HTTP/1.1

bool isAlnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// reg-name (RFC 3986 3.2.2): unreserved / pct-encoded / sub-delims; IPv4 addresses are of it.
bool validRegName(std::string_view name) {
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '%') {
            if (i + 2 >= name.size() || !isHex(name[i + 1]) || !isHex(name[i + 2])) return false;
            i += 2;
            continue;
        }
        if (!isAlnum(c) && std::string_view("-._~!$&'()*+,;=").find(c) == std::string_view::npos)
            return false;
    }
    return true;
}

// An IP literal's inside: IPv6 (hex, ':' and a trailing dotted IPv4), a zone or an IPvFuture.
bool validIpLiteral(std::string_view inside) {
    if (inside.empty()) return false;
    for (char c : inside) {
        if (!isAlnum(c) && std::string_view(":.-_~%!$&'()*+,;=").find(c) == std::string_view::npos)
            return false;
    }
    return true;
}

}  // namespace

bool validHostValue(std::string_view value) {
    std::string_view host = value;
    std::string_view port;
    if (!value.empty() && value.front() == '[') {
        const std::size_t close = value.find(']');
        if (close == std::string_view::npos || !validIpLiteral(value.substr(1, close - 1)))
            return false;
        host = {};
        const std::string_view rest = value.substr(close + 1);
        if (!rest.empty()) {
            if (rest.front() != ':') return false;
            port = rest.substr(1);
        }
    } else if (const std::size_t colon = value.find(':'); colon != std::string_view::npos) {
        host = value.substr(0, colon);
        port = value.substr(colon + 1);
    }
    if (!validRegName(host)) return false;
    return port.find_first_not_of("0123456789") == std::string_view::npos;
}

std::optional<std::string> hostFieldProblem(const Request& request) {
    auto [begin, end] = request.equal_range(http::field::host);
    const auto count = std::distance(begin, end);
    if (count == 0) {
        if (request.version() >= kHostRequiredFrom)
            return "an HTTP/1.1 request needs a Host header";
        return std::nullopt;
    }
    if (count > 1) return "more than one Host header";
    const std::string_view value(begin->value().data(), begin->value().size());
    if (!validHostValue(value)) return "the Host header is not a host[:port]";
    return std::nullopt;
}

}  // namespace outpost::server
