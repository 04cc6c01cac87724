#include "games/idempotent_create.h"

#include <cstdint>
#include <utility>

#include "errors/error_codes.h"
#include "games/deadlines.h"
#include "games/game_errors.h"
#include "ops/sha256.h"
#include "ops/tokens.h"
#include "store/game_turn.h"

namespace outpost::server {

namespace {

constexpr char kSealHex[] = "0123456789abcdef";

// What the store keeps of a key: the secrets below are derived from the same text under other
// labels, so the stored name tells nothing of them.
std::string scopedSecret(std::string_view key, const ClientInfo& client) {
    return client.address + "\n" + std::string(key);
}

// `text` XORed with SHA-256(label, block number, secret) blocks, as hex (seal) or from hex
// (unseal; nullopt when `text` is not hex of an even length).
std::string keyStream(std::string_view label, std::string_view secret, std::size_t length) {
    std::string stream;
    for (std::size_t block = 0; stream.size() < length; ++block) {
        const auto digest =
            sha256(std::string(label) + ":" + std::to_string(block) + "\n" + std::string(secret));
        stream.append(digest.begin(), digest.end());
    }
    stream.resize(length);
    return stream;
}

std::string seal(std::string_view label, std::string_view secret, std::string_view text) {
    const std::string stream = keyStream(label, secret, text.size());
    std::string hex;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<std::uint8_t>(text[i] ^ stream[i]);
        hex += kSealHex[byte >> 4];
        hex += kSealHex[byte & 0x0f];
    }
    return hex;
}

std::optional<std::string> unseal(std::string_view label, std::string_view secret,
                                  std::string_view hex) {
    if (hex.size() % 2 != 0) return std::nullopt;
    const auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        return -1;
    };
    const std::string stream = keyStream(label, secret, hex.size() / 2);
    std::string text;
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        const int high = nibble(hex[i]);
        const int low = nibble(hex[i + 1]);
        if (high < 0 || low < 0) return std::nullopt;
        text += static_cast<char>(((high << 4) | low) ^ static_cast<std::uint8_t>(stream[i / 2]));
    }
    return text;
}

// A claim as stored: the body's fingerprint, and the game's id and sealed tokens.
struct Claim {
    std::string fingerprint;
    GameIdentity identity;
};

std::string claimDoc(const Claim& claim, std::string_view secret) {
    return nlohmann::json{{"body", claim.fingerprint},
                          {"game", claim.identity.id},
                          {"player", seal("player", secret, claim.identity.playerToken)},
                          {"invite", seal("invite", secret, claim.identity.inviteToken)}}
        .dump();
}

std::optional<Claim> readClaim(std::string_view doc, std::string_view secret) {
    const nlohmann::json json = nlohmann::json::parse(doc, nullptr, false);
    if (!json.is_object()) return std::nullopt;
    for (const char* field : {"body", "game", "player", "invite"})
        if (!json.contains(field) || !json.at(field).is_string()) return std::nullopt;
    auto player = unseal("player", secret, json.at("player").get<std::string>());
    auto invite = unseal("invite", secret, json.at("invite").get<std::string>());
    if (!player || !invite) return std::nullopt;
    return Claim{json.at("body").get<std::string>(),
                 {json.at("game").get<std::string>(), std::move(*player), std::move(*invite)}};
}

// The game the key's first request made, as its creator gets it: nullopt when it is not stored.
std::variant<std::optional<CreatedGame>, ApiError> storedGame(ServerContext& context,
                                                              const GameIdentity& identity) {
    GameService service(context);
    // A read by its creator (a sign of life); one that owes the engine's reply watches it.
    auto loaded = service.loadReadBy(identity.id, identity.playerToken);
    if (auto* error = std::get_if<ApiError>(&loaded)) {
        if (error->code == errors::not_found) return std::nullopt;
        return *error;
    }
    CreatedGame created;
    created.game = std::move(std::get<GameRecord>(loaded));
    const GameRecord& game = created.game;
    const bool white = tokenMatches(identity.playerToken, game.whiteTokenHash);
    const bool black = tokenMatches(identity.playerToken, game.blackTokenHash);
    if (white == black) {
        // A 128-bit id taken by another game, or a game not made the way it was claimed.
        return ApiError{ErrorStatus::internal_server_error, errors::internal,
                        "the game of this Idempotency-Key does not hold its token"};
    }
    created.playerToken = identity.playerToken;
    created.playerSide = sideName(white);
    if (tokenMatches(identity.inviteToken, white ? game.blackTokenHash : game.whiteTokenHash))
        created.inviteToken = identity.inviteToken;
    // Its deadlines (a first move owed) are watched here too: the first request may have stored
    // it and failed before it watched them (write_unconfirmed).
    GameDeadlines(context).watch(game);
    return created;
}

}  // namespace

std::optional<ApiError> checkIdempotencyKey(std::string_view key) {
    if (key.empty()) return badRequest("the Idempotency-Key header is empty; send a random key");
    if (key.size() > kMaxIdempotencyKey) {
        return badRequest("the Idempotency-Key header has " + std::to_string(key.size()) +
                          " characters; at most " + std::to_string(kMaxIdempotencyKey));
    }
    for (const char c : key) {
        if (c < 0x21 || c > 0x7e) {
            return badRequest(
                "the Idempotency-Key header may hold only visible ASCII characters (no space), "
                "as a UUID does");
        }
    }
    return std::nullopt;
}

std::variant<IdempotentCreated, ApiError> createOnce(ServerContext& context,
                                                     const nlohmann::json& body,
                                                     std::string_view key, const ClientInfo& client,
                                                     const StoreNewGame& storeNew) {
    // A body that would be refused claims nothing: the key stays free for the corrected one.
    auto prepared = GameService(context).prepare(body);
    if (auto* error = std::get_if<ApiError>(&prepared)) return *error;

    const std::string secret = scopedSecret(key, client);
    // The parsed body, serialised again (keys sorted, no spaces): the same JSON sent with other
    // spacing or key order is the same request.
    const Claim ours{sha256Hex(body.dump()), GameIdentity::fresh()};
    const KeyClaimResult claim =
        context.store->claimKey(sha256Hex("idempotency-key\n" + secret), claimDoc(ours, secret),
                                kIdempotencyKeep, context.clock.nowMs());
    if (claim.status != StoreStatus::Ok) return storeError(claim.status, ours.identity.id);
    const std::optional<Claim> held = readClaim(claim.doc, secret);
    if (!held) {
        return ApiError{ErrorStatus::internal_server_error, errors::internal,
                        "the stored record of this Idempotency-Key cannot be read"};
    }
    if (held->fingerprint != ours.fingerprint) {
        return unprocessable(errors::idempotency_key_reused,
                             "this Idempotency-Key was used for another request (another body) "
                             "in the last 24 hours; send a new random key for a new game");
    }
    const auto replay = [&]() -> std::variant<IdempotentCreated, ApiError> {
        auto stored = storedGame(context, held->identity);
        if (auto* error = std::get_if<ApiError>(&stored)) return *error;
        auto& game = std::get<std::optional<CreatedGame>>(stored);
        if (!game) return IdempotentCreated{};  // not stored: the caller makes it
        return IdempotentCreated{std::move(*game), true};
    };
    if (!claim.claimed) {
        // A retry (or a request racing the first): the game, when it is stored.
        auto replayed = replay();
        if (auto* error = std::get_if<ApiError>(&replayed)) return *error;
        if (std::get<IdempotentCreated>(replayed).replayed) return replayed;
    }
    StoreStatus stored = StoreStatus::Ok;
    auto created = storeNew(std::move(std::get<NewGame>(prepared)), held->identity, &stored);
    if (auto* done = std::get_if<CreatedGame>(&created)) return IdempotentCreated{*done, false};
    if (stored != StoreStatus::AlreadyExists) return std::get<ApiError>(created);
    // Another request with the key stored the game first: this one answers with it.
    auto replayed = replay();
    if (auto* done = std::get_if<IdempotentCreated>(&replayed); done && !done->replayed)
        return std::get<ApiError>(created);  // taken, yet not readable: not ours
    return replayed;
}

}  // namespace outpost::server
