// SHA-256 (FIPS 180-4), small and self-contained: the server stores only the hashes of player
// tokens. A token is 192 random bits, so a plain hash is enough (no salt or key stretching: those
// defend guessable passwords, and nobody guesses 192 bits).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace outpost::server {

std::array<std::uint8_t, 32> sha256(std::string_view data);
// Lower-case hex of the digest (64 characters).
std::string sha256Hex(std::string_view data);

}  // namespace outpost::server
