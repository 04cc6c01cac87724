#include "games/engine_replies.h"

#include <algorithm>
#include <array>
#include <utility>

#include "analysis/analysis.h"
#include "analysis/search_record.h"
#include "api/json_types.h"
#include "errors/error_codes.h"
#include "games/game_errors.h"
#include "games/game_view.h"
#include "games/sides.h"
#include "search/levels.h"
#include "search/timeman.h"

namespace outpost::server {

namespace {

using search::kMaxLevel;
using search::kMinLevel;
// Thinking time per playing level when a game sets no limits and no clock: short at the low
// levels (people want quick replies), up to a second at the top.
constexpr std::array<std::int64_t, kMaxLevel> kLevelMovetimeMs = {50,  100, 150, 200,
                                                                  300, 500, 700, 1000};

// The most the engine's search for a reply on a clock may take: the hard bound its own time
// management sets (search/timeman.h) for the time the engine has when the reply becomes owed,
// under the server's time cap. Its search stops there at the latest, so a replica that starts it
// later than this (and the grace) after the move was stored knows no live search for it is left
// on a replica that died. Computed without the move overhead and measured latency (which only
// lower it) and from the time stored, which is at least what the engine had when the search
// began: never below the bound the search ran with.
std::int64_t clockReplyHardMs(const GameRecord& game, const ServerConfig& config) {
    SearchLimits limits;
    limits.wtimeMs = std::max<std::int64_t>(0, game.clock->whiteMs);
    limits.btimeMs = std::max<std::int64_t>(0, game.clock->blackMs);
    limits.wincMs = game.clock->incrementMs;
    limits.bincMs = game.clock->incrementMs;
    limits.maxTimeMs = config.maxMovetimeMs;
    const auto bounds = search::computeTimeBounds(limits, game.engine.side == "white", 0);
    return bounds ? bounds->hardMs : config.maxMovetimeMs;
}

}  // namespace

// A reply is owed by a game at one version: a search for an older version (before a takeback)
// does not stand for the current one.
std::string replyKey(const std::string& gameId, std::uint64_t version) {
    return gameId + "@" + std::to_string(version);
}

std::int64_t levelMovetimeMs(int level) {
    if (level < kMinLevel || level > kMaxLevel) return 0;
    return kLevelMovetimeMs[static_cast<std::size_t>(level - 1)];
}

std::int64_t replyDeadlineMs(const GameRecord& game, const ServerConfig& config) {
    std::int64_t thinkMs = config.maxMovetimeMs;  // depth, nodes, a clock: bounded by the cap
    if (game.clock && !game.engine.limits) {
        // On a clock the engine's own time management bounds the move (at most 30% of the time
        // it has, search/timeman.cpp): a reply owed longer than that bound (and the grace) was
        // dropped, and is taken up as soon as the search for it must have ended.
        thinkMs = clockReplyHardMs(game, config);
    } else if (game.engine.limits) {
        if (game.engine.limits->movetimeMs && !game.engine.limits->depth &&
            !game.engine.limits->nodes) {
            thinkMs = std::min(*game.engine.limits->movetimeMs, config.maxMovetimeMs);
        }
    } else if (!game.clock) {
        thinkMs =
            game.engine.level ? levelMovetimeMs(*game.engine.level) : config.defaultMovetimeMs;
    }
    return game.updatedAtMs + thinkMs + config.engineReplyGraceMs;
}

void EngineReplies::start(const GameRecord& game, const std::optional<LimitsSpec>& limits,
                          const ClientInfo& client, bool owed, GameDone done) {
    const ChessState state = replay(game);
    SearchRequest request;
    request.fen = game.initialFen;
    request.moves = game.moves;
    request.level = game.engine.level.value_or(0);
    // Per-game memory is keyed by the game, and a level's choice is seeded by the game and ply.
    request.game = game.id;
    request.seed = search::levelSeed(game.id, game.moves.size());
    nlohmann::json applied;
    const LimitsSpec* chosen = limits && !limits->empty() ? &*limits
                               : game.engine.limits       ? &*game.engine.limits
                                                          : nullptr;
    if (chosen) {
        CappedLimits capped = capLimits(*chosen, context_.config);
        request.limits = capped.limits;
        applied = capped.applied;
    } else if (game.clock) {
        // The engine plays on its own clock with its time management.
        const ClockReading reading =
            readClock(*game.clock, state.whiteToMove(), context_.clock.nowMs());
        request.limits.wtimeMs = reading.whiteMs;
        request.limits.btimeMs = reading.blackMs;
        request.limits.wincMs = game.clock->incrementMs;
        request.limits.bincMs = game.clock->incrementMs;
        applied = {{"wtime", reading.whiteMs},
                   {"btime", reading.blackMs},
                   {"winc", game.clock->incrementMs},
                   {"binc", game.clock->incrementMs}};
        capSearchTime(request.limits, applied, context_.config);
    } else {
        LimitsSpec byLevel;
        byLevel.movetimeMs = game.engine.level ? levelMovetimeMs(*game.engine.level)
                                               : context_.config.defaultMovetimeMs;
        CappedLimits capped = capLimits(byLevel, context_.config);
        request.limits = capped.limits;
        applied = capped.applied;
    }

    const std::string reply = replyKey(game.id, game.version);
    if (!context_.replies.begin(reply)) {
        // A search for this game runs here already; its move reaches every subscriber.
        return done(GameReply{game, nullptr, true});
    }
    const bool whiteToMove = state.whiteToMove();
    auto root = std::make_shared<const ChessState>(state);
    ServerContext& context = context_;
    const std::string gameId = game.id;
    const std::uint64_t version = game.version;
    JobCallbacks callbacks;
    callbacks.onInfo = [&context, gameId, version, whiteToMove, root](const SearchInfo& info) {
        nlohmann::json payload = api::infoJson(info, whiteToMove, root->sanLine(info.pv));
        payload["type"] = "info";
        payload["gameId"] = gameId;
        context.bus->publish(
            GameEvent{GameEvent::Kind::EngineInfo, gameId, version, payload.dump()});
    };
    // The search thread only hands the result on: reading and writing the store is the store
    // executor's work, so a slow store never holds a searcher.
    callbacks.onDone = [&context, searched = game, applied, client, owed,
                        done](const JobOutcome& outcome) {
        recordSearchMetrics(context.metrics, outcome);
        context.storeWork.post([&context, searched, outcome, applied, client, owed, done] {
            EngineReplies(context).finish(searched, outcome, applied, client, owed, done);
        });
    };
    Submission submission = context_.pool->submit(client.address, std::move(request),
                                                  std::move(callbacks), JobPriority::Game);
    if (submission.admission == Admission::Accepted) return;
    context_.replies.end(reply);
    context_.metrics.searchRejected(toString(submission.admission));
    if (!owed) return done(admissionError(submission.admission, context_.config));
    // The player's move is stored: it is accepted, and the engine owes the reply. This replica
    // tries again shortly; any replica that reads the game takes it up once it is overdue.
    context_.logger.log({{"event", "engine_reply_deferred"},
                         {"game", game.id},
                         {"reason", toString(submission.admission)}});
    context_.flags.watch(game.id, game.version, context_.clock.nowMs() + kReplyRecheckMs);
    done(GameReply{game, nullptr, true});
}

void EngineReplies::finish(const GameRecord& searched, const JobOutcome& outcome,
                           const nlohmann::json& applied, const ClientInfo& client, bool owed,
                           GameDone done) {
    const std::string& gameId = searched.id;
    // Whatever happens below, this replica no longer computes the reply (a deadline check may
    // take it up again if it was not stored).
    struct EndReply {
        RepliesInFlight& replies;
        const std::string key;
        bool pending = true;
        void now() {
            if (std::exchange(pending, false)) replies.end(key);
        }
        ~EndReply() { now(); }
    } endReply{context_.replies, replyKey(gameId, searched.version)};
    // Answering ends this replica's search for the reply first: the answer lets the client
    // move again at once, and that move's reply must find no search in flight.
    auto finish = [&](GameOutcome answer) {
        endReply.now();
        done(std::move(answer));
    };
    // Not delivered: a stored move waits for it (the deadline watch takes it up again), or the
    // request that asked for it gets the error.
    auto notDelivered = [&](ApiError error) {
        if (!owed) return finish(std::move(error));
        context_.flags.watch(gameId, searched.version, context_.clock.nowMs() + kReplyRecheckMs);
        finish(GameReply{searched, nullptr, true});
    };
    const std::string& best = outcome.result.bestmove;
    if (!outcome.error.empty() || best.empty() || best == "0000") {
        context_.logger.log(
            {{"event", "engine_no_move"}, {"game", gameId}, {"error", outcome.error}});
        return notDelivered(ApiError{
            ErrorStatus::internal_server_error, errors::internal,
            "the engine found no move" + (outcome.error.empty() ? "" : ": " + outcome.error)});
    }
    StoreReadResult read = context_.store->get(gameId);
    if (read.status != StoreStatus::Ok) return notDelivered(storeError(read.status, gameId));
    GameRecord current = std::move(*read.game);
    if (current.version != searched.version || current.status != "ongoing") {
        // The game moved on while the engine thought (a takeback, a resignation, a flag, the
        // same reply from another replica): the answer is the game as it is now.
        return finish(GameReply{std::move(current), nullptr});
    }
    ChessState position = replay(current);
    const ChessState root = position;
    const std::string san = position.san(best);
    const bool played = applyMove(current, position, best, context_.clock.nowMs());
    if (auto error = GameService(context_).commit(current, searched.version)) {
        if (error->code != errors::version_conflict) return notDelivered(*error);
        read = context_.store->get(gameId);  // lost the race: answer with what won
        if (read.status != StoreStatus::Ok) return notDelivered(storeError(read.status, gameId));
        return finish(GameReply{std::move(*read.game), nullptr});
    }
    if (!played) return finish(GameReply{std::move(current), nullptr});  // the engine's flag fell
    const SearchInfo& info = outcome.result.info;
    nlohmann::json engineMove = {
        {"move", best},
        {"san", san},
        {"score", api::scoreJson(info.score, root.whiteToMove())},
        {"depth", info.depth},
        {"nodes", info.nodes},
        {"pv", info.pv},
        {"pvSan", root.sanLine(info.pv)},
        {"timeMs", info.timeMs},
        {"queueWaitMs", outcome.timing.queueWaitMs},
        {"limitsApplied", applied},
    };
    context_.logger.log({{"event", "engine_move"},
                         {"game", gameId},
                         {"move", best},
                         {"depth", info.depth},
                         {"nodes", info.nodes},
                         {"queueWaitMs", outcome.timing.queueWaitMs},
                         {"searchMs", outcome.timing.searchMs}});
    // The engine was asked to play the player's side (engine-move): now it is the engine's own
    // turn, so it replies as it would to a move of the player's.
    if (owesEngineReply(current)) {
        endReply.now();  // this reply is stored; the next one is a search of its own
        return start(current, std::nullopt, client, true, std::move(done));
    }
    finish(GameReply{std::move(current), std::move(engineMove)});
}

}  // namespace outpost::server
