// The address per-client limits key on. The peer's own address, unless the peer is a trusted
// proxy (the load balancer): then the rightmost X-Forwarded-For hop that is not a trusted proxy.
//
// Why the rightmost: every proxy appends the address it saw to what it received
// (nginx's $proxy_add_x_forwarded_for), so only the hops added by our own proxies are facts; the
// leftmost ones are whatever the client chose to send. Reading from the right and skipping our
// proxies stops at the first address a trusted proxy saw: the client, or the last untrusted proxy
// in front of ours. A client cannot pick its key by sending the header, with or without a proxy.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace outpost::server {

// `trustedProxies`: addresses ("10.0.0.1", "::1") or ranges in CIDR notation ("172.16.0.0/12",
// "fd00::/8"). `forwardedFor`: every X-Forwarded-For field of the request, joined with commas in
// the order received.
std::string clientAddress(std::string_view peer, std::string_view forwardedFor,
                          const std::vector<std::string>& trustedProxies);

// True when `address` is one of `trustedProxies` (or inside one of its ranges).
bool isTrustedProxy(std::string_view address, const std::vector<std::string>& trustedProxies);

}  // namespace outpost::server
