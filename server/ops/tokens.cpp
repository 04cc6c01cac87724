#include "ops/tokens.h"

#include <sys/random.h>

#include <cerrno>
#include <stdexcept>
#include <vector>

#include "ops/sha256.h"

namespace outpost::server {

namespace {
constexpr std::size_t kGameIdBytes = 16;
constexpr std::size_t kTokenBytes = 24;
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
}  // namespace

std::string randomUrlSafe(std::size_t bytes) {
    std::vector<unsigned char> raw(bytes);
    std::size_t filled = 0;
    while (filled < bytes) {
        ssize_t got = getrandom(raw.data() + filled, bytes - filled, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error("getrandom failed");
        }
        filled += static_cast<std::size_t>(got);
    }
    std::string out;
    unsigned buffer = 0;
    int bits = 0;
    for (unsigned char byte : raw) {
        buffer = (buffer << 8) | byte;
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out += kAlphabet[(buffer >> bits) & 0x3F];
        }
    }
    if (bits > 0) out += kAlphabet[(buffer << (6 - bits)) & 0x3F];
    return out;
}

std::string newGameId() {
    return randomUrlSafe(kGameIdBytes);
}
std::string newPlayerToken() {
    return randomUrlSafe(kTokenBytes);
}

bool constantTimeEquals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    unsigned char diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    }
    return diff == 0;
}

std::string tokenHash(std::string_view token) {
    return sha256Hex(token);
}

bool tokenMatches(std::string_view token, std::string_view hash) {
    if (hash.empty()) return false;
    return constantTimeEquals(tokenHash(token), hash);
}

}  // namespace outpost::server
