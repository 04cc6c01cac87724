// Who sent a request: the key per-client limits are counted under (the peer address, or the
// rightmost X-Forwarded-For hop that is not a trusted proxy when the peer is one; see
// http/client_address.h).
#pragma once

#include <string>

namespace outpost::server {

struct ClientInfo {
    std::string address;
};

}  // namespace outpost::server
