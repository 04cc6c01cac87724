#include "http/client_address.h"

#include <algorithm>

namespace outpost::server {

namespace {
std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}
}  // namespace

std::string clientAddress(std::string_view peer, std::string_view forwardedFor,
                          const std::vector<std::string>& trustedProxies) {
    const bool trusted =
        std::find(trustedProxies.begin(), trustedProxies.end(), peer) != trustedProxies.end();
    if (!trusted || forwardedFor.empty()) return std::string(peer);
    std::string_view first = forwardedFor.substr(0, forwardedFor.find(','));
    first = trim(first);
    return first.empty() ? std::string(peer) : std::string(first);
}

}  // namespace outpost::server
