#include "games/deadlines.h"

#include <algorithm>
#include <optional>

#include "games/engine_replies.h"
#include "games/finisher.h"
#include "games/game_replay.h"
#include "games/game_service.h"
#include "games/sides.h"
#include "store/clock_deadline.h"

namespace outpost::server {

namespace {
// When the store cannot be reached at a flag fall: try again after this long.
constexpr std::int64_t kFlagRetryMs = 1000;
// The clock sweep watches the flags that fall before its sweep after next (a sweep may come
// late), at most this many games a sweep (the soonest first; the next sweep takes the rest).
constexpr std::int64_t kSweepHorizonSweeps = 2;
constexpr std::size_t kMaxClocksPerSweep = 10000;

// The game's next deadline: its flag or first move owed, or the time an engine reply it owes is
// overdue (its replica died or drained), the earlier of the two; none when it has neither.
std::optional<std::int64_t> nextDeadlineMs(const GameRecord& game, const ServerConfig& config) {
    std::optional<std::int64_t> next = clockDeadlineMs(game);
    if (owesEngineReply(game)) {
        const std::int64_t overdue = replyDeadlineMs(game, config);
        next = next ? std::min(*next, overdue) : overdue;
    }
    return next;
}
}  // namespace

void GameDeadlines::watch(const GameRecord& game) {
    if (game.status != "ongoing") return;
    if (const auto next = nextDeadlineMs(game, context_.config))
        context_.flags.watch(game.id, game.version, *next);
}

void GameDeadlines::check(const std::string& id, std::uint64_t version) {
    StoreReadResult read = context_.store->get(id);
    if (read.status == StoreStatus::Unavailable) {
        context_.flags.watch(id, version, context_.clock.nowMs() + kFlagRetryMs);
        return;
    }
    if (read.status != StoreStatus::Ok) {
        context_.unsettled.take(id);  // gone: nothing to settle
        return;
    }
    GameRecord game = std::move(*read.game);
    if (const auto sent = context_.unsettled.take(id)) {
        settle(game, *sent);
        // This watch stood in for the game's own deadlines: watch them as stored.
        if (game.version != version) return watch(game);
    }
    // Changed since (a move in time, a takeback, the game ended): not this watch's business.
    if (game.version != version) return;
    if (game.status != "ongoing") return;
    const ChessState state = replay(game);
    const std::int64_t now = context_.clock.nowMs();
    const bool flagFell = applyTimeouts(game, state, now);
    if (!flagFell) {
        if (owesEngineReply(game) && now >= replyDeadlineMs(game, context_.config)) {
            if (context_.replies.contains(replyKey(id, version))) {
                // This replica is still at it (a long queue): look again later.
                context_.flags.watch(id, version, now + kReplyRecheckMs);
                return;
            }
            context_.logger.log({{"event", "engine_reply_resumed"}, {"game", id}});
            EngineReplies(context_).start(game, std::nullopt, ClientInfo{"server"}, true,
                                          [](GameOutcome) {});
            return;
        }
        // Woken before any deadline (the wall clock was stepped back): wait again.
        watch(game);
        return;
    }
    if (auto error = GameService(context_).commit(game, version)) {
        // Lost the compare-and-set: a move that came in time, or another replica recording this
        // flag fall, won; the winner's writer watches what it stored. A store that failed is
        // asked again later.
        if (error->status == ErrorStatus::service_unavailable)
            context_.flags.watch(id, version, context_.clock.nowMs() + kFlagRetryMs);
        return;
    }
    context_.logger.log(
        {{"event", "flag_fall"}, {"game", id}, {"status", game.status}, {"result", game.result}});
}

void GameDeadlines::settle(const GameRecord& game, std::uint64_t sentVersion) {
    // Stored at another version: the change was not made (or a later one replaced it, which its
    // writer published).
    const bool made = game.version == sentVersion;
    context_.logger.log(
        {{"event", "write_settled"}, {"game", game.id}, {"version", sentVersion}, {"made", made}});
    if (!made) return;
    // What its writer would have done had the store answered (GameService::commit).
    GameService(context_).announceStored(game);
    // The reply its writer would have started (it answered the move with an error instead).
    if (owesEngineReply(game) && !context_.replies.contains(replyKey(game.id, game.version))) {
        EngineReplies(context_).start(game, std::nullopt, ClientInfo{"server"}, true,
                                      [](GameOutcome) {});
    }
}

void GameDeadlines::followOwedReply(const std::string& id, std::uint64_t version) {
    context_.flags.adopt(id, version, context_.clock.nowMs() + context_.config.engineReplyGraceMs);
}

void GameDeadlines::rearm() {
    const std::int64_t until =
        context_.clock.nowMs() + kSweepHorizonSweeps * context_.config.clockSweepMs;
    StoreManyResult due = context_.store->runningClocks(until, kMaxClocksPerSweep);
    if (due.status != StoreStatus::Ok) {
        context_.logger.log({{"event", "clock_sweep_failed"}, {"store", toString(due.status)}});
        return;
    }
    // An engine reply owed longer than it may take is taken up before the engine's flag falls.
    for (const GameRecord& game : due.games) {
        if (const auto next = nextDeadlineMs(game, context_.config))
            context_.flags.adopt(game.id, game.version, *next);
    }
}

}  // namespace outpost::server
