// A game's deadlines: the flag fall of a running clock, the first move owed between people, and
// the overdue time of an engine reply the game owes. Watched by the FlagWatch of the replica that
// stored the game, and found again by every replica's clock sweep.
#pragma once

#include <cstdint>
#include <string>

#include "server_context.h"
#include "store/game_record.h"

namespace outpost::server {

// A change sent to the store without an answer (StoreStatus::Unanswered): its game is read again
// after this long, and again as long as the store cannot be read.
inline constexpr std::int64_t kUnsettledRecheckMs = 1000;

class GameDeadlines {
  public:
    explicit GameDeadlines(ServerContext& context) : context_(context) {}

    // Watches the next deadline of `game` (flag fall while its clock runs, a first move owed, the
    // overdue time of an engine reply it owes); nothing when it has none.
    void watch(const GameRecord& game);

    // The FlagWatch's callback, for game `id` still at `version`: records the flag fall (or the
    // missed first move) if it is due (compare-and-set; subscribers get the event), and takes up
    // an engine reply that is owed and overdue (its replica died, drained, or could not queue
    // it) unless this replica is computing it. A change stored since, or a lost race, ends the
    // watch: whoever stored or reads the newer version watches it. Call on the watch's thread,
    // never on an I/O thread (it reads the store). First it settles a change of the game this
    // replica sent without an answer (UnsettledWrites): found stored, it is published, and the
    // engine's reply it owes is started.
    void check(const std::string& id, std::uint64_t version);

    // A change of game `id` to `version` that owes an engine reply, seen on the event bus by a
    // replica whose clients follow the game (whichever replica stored it): checked once the
    // grace has passed, so a reply its replica never delivers (it died or drained) is taken up
    // here without waiting for a read. check() reads the game then and watches the exact
    // deadline if the reply is not overdue yet.
    void followOwedReply(const std::string& id, std::uint64_t version);

    // The clock sweep (games/clock_sweep.h): watches the flag falls of the running clocks the
    // store lists, due within the next sweeps, whichever replica stored them. Call on the sweep's
    // thread (it reads the store).
    void rearm();

  private:
    // Publishes `game` as stored when it holds the change this replica sent at `sentVersion`
    // without an answer, and starts the engine's reply it owes.
    void settle(const GameRecord& game, std::uint64_t sentVersion);

    ServerContext& context_;
};

}  // namespace outpost::server
