// The lobby over the store (docs/play.md, "The lobby"): make, list, read, follow, cancel and
// accept seeks. Every replica sees every seek (they live in the store); acceptance is a
// compare-and-set of the seek, so of two acceptors, on one replica or two, one gets the game and
// the other 409 seek_taken. Stateless: construct one per use, on the store executor (it reads and
// writes the store), never on an I/O thread.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "errors/api_error.h"
#include "errors/client_info.h"
#include "lobby/seek.h"
#include "server_context.h"
#include "store/game_record.h"

namespace outpost::server {

// The bus channel of a seek's events (the game event bus, under an id no game has).
std::string seekChannel(const std::string& seekId);

struct SeekCreated {
    Seek seek;
    std::string token;  // the seek token: exists only in this answer
};

struct SeekAccepted {
    Seek seek;
    GameRecord game;
    std::string playerToken;  // the acceptor's
    std::string playerSide;
};

// A new game between two people from the start position: `clock` (none: untimed), each side's
// token hash; id and times set.
GameRecord peopleGame(const std::optional<SeekClock>& clock, std::string whiteTokenHash,
                      std::string blackTokenHash, std::int64_t nowMs);

class SeekService {
  public:
    explicit SeekService(ServerContext& context) : context_(context) {}

    SeekTiming timing() const;

    std::variant<SeekCreated, ApiError> create(const nlohmann::json& body,
                                               const ClientInfo& client);
    // The open seeks, oldest first (those found expired are closed on the way).
    std::variant<std::vector<Seek>, ApiError> list();
    // The seek, for its seeker (`token` is the seek token): 401 without, 403 with another.
    std::variant<Seek, ApiError> getOwned(const std::string& id,
                                          const std::optional<std::string>& token);
    // Cancels an open seek (its seeker); an accepted one stays accepted (409 seek_taken).
    std::variant<Seek, ApiError> cancel(const std::string& id,
                                        const std::optional<std::string>& token);
    // `token`: the acceptor's bearer token, if any; the seek's own is refused (409 own_seek).
    std::variant<SeekAccepted, ApiError> accept(const std::string& id,
                                                const std::optional<std::string>& token,
                                                const ClientInfo& client);

  private:
    std::variant<Seek, ApiError> read(const std::string& id);

    ServerContext& context_;
};

}  // namespace outpost::server
