#include "http/client_address.h"

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/network_v4.hpp>
#include <boost/asio/ip/network_v6.hpp>
#include <optional>

#include "http/header_text.h"

namespace outpost::server {

namespace {

namespace ip = boost::asio::ip;

std::optional<ip::address> parseAddress(std::string_view text) {
    boost::system::error_code error;
    ip::address address = ip::make_address(std::string(text), error);
    if (error) return std::nullopt;
    // An IPv4 client seen on a dual-stack socket: ::ffff:1.2.3.4 is 1.2.3.4.
    if (address.is_v6() && address.to_v6().is_v4_mapped()) {
        return ip::make_address_v4(ip::v4_mapped, address.to_v6());
    }
    return address;
}

bool matches(const ip::address& address, std::string_view entry) {
    const auto slash = entry.find('/');
    if (slash == std::string_view::npos) {
        auto single = parseAddress(entry);
        return single && *single == address;
    }
    boost::system::error_code error;
    if (address.is_v4()) {
        auto network = ip::make_network_v4(std::string(entry), error);
        if (error) return false;
        return ip::make_network_v4(address.to_v4(), network.prefix_length()).canonical() ==
               network.canonical();
    }
    auto network = ip::make_network_v6(std::string(entry), error);
    if (error) return false;
    return ip::make_network_v6(address.to_v6(), network.prefix_length()).canonical() ==
           network.canonical();
}

}  // namespace

bool isTrustedProxy(std::string_view address, const std::vector<std::string>& trustedProxies) {
    if (trustedProxies.empty()) return false;
    auto parsed = parseAddress(trimHeaderSpace(address));
    if (!parsed) return false;
    for (const std::string& entry : trustedProxies) {
        if (matches(*parsed, trimHeaderSpace(entry))) return true;
    }
    return false;
}

std::string clientAddress(std::string_view peer, std::string_view forwardedFor,
                          const std::vector<std::string>& trustedProxies) {
    if (forwardedFor.empty() || !isTrustedProxy(peer, trustedProxies)) return std::string(peer);
    // From the right: the first hop that is not one of ours is the client. When every hop is
    // ours, the leftmost is as far as anyone trustworthy saw.
    std::string_view leftmost;
    std::string_view rest = forwardedFor;
    while (!rest.empty()) {
        const auto comma = rest.rfind(',');
        const std::string_view hop =
            trimHeaderSpace(comma == std::string_view::npos ? rest : rest.substr(comma + 1));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(0, comma);
        if (hop.empty()) continue;
        if (!isTrustedProxy(hop, trustedProxies)) return std::string(hop);
        leftmost = hop;
    }
    return leftmost.empty() ? std::string(peer) : std::string(leftmost);
}

}  // namespace outpost::server
