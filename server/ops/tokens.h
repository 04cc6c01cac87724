// Unguessable identifiers from the kernel's CSPRNG (getrandom), URL-safe base64 without padding.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace outpost::server {

// 16 bytes (128 bits): game ids.
std::string newGameId();
// 24 bytes (192 bits): player tokens.
std::string newPlayerToken();
std::string randomUrlSafe(std::size_t bytes);
// Compares in time independent of where the strings differ (tokens).
bool constantTimeEquals(std::string_view a, std::string_view b);
// What the store keeps of a player token: its SHA-256, in hex.
std::string tokenHash(std::string_view token);
// True when `token` is the one `hash` was made of (never for an empty hash); compares the
// hashes in constant time.
bool tokenMatches(std::string_view token, std::string_view hash);

}  // namespace outpost::server
