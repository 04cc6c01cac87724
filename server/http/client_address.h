// The address per-client limits key on: the peer, or the first X-Forwarded-For hop when the peer
// is a trusted proxy (the load balancer). An untrusted peer cannot pick its key by sending the
// header.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace outpost::server {

std::string clientAddress(std::string_view peer, std::string_view forwardedFor,
                          const std::vector<std::string>& trustedProxies);

}  // namespace outpost::server
