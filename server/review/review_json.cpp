#include "review/review_json.h"

#include <cmath>

#include "openings/openings.h"

namespace outpost::server::review {

namespace {

// Probabilities and accuracies keep four decimals: enough for any display, stable in tests.
double rounded(double value) {
    constexpr double kScale = 10000.0;
    return std::round(value * kScale) / kScale;
}

std::optional<MoveVerdict> verdictOf(const ReviewGame& game, const ReviewState& state,
                                     std::size_t ply) {
    if (ply == 0 || ply >= state.positions.size()) return std::nullopt;
    const auto& before = state.positions[ply - 1];
    const auto& after = state.positions[ply];
    if (!before || !after) return std::nullopt;
    const bool whiteMoved = game.positions[ply - 1].whiteToMove();
    const bool playedBest = before->bestmove == game.moves[ply - 1];
    return judgeMove(before->eval, after->eval, whiteMoved, playedBest);
}

// White's win percents from the first position on, as far as every position is done (the
// volatility windows need them in a row), without a final checkmate (lila's analysis has no
// evaluation there, so the mating move counts in no accuracy).
std::vector<double> accuracyWinPercents(const ReviewState& state) {
    std::vector<double> percents;
    for (const auto& position : state.positions) {
        if (!position || position->eval.isCheckmate()) break;
        percents.push_back(whiteWinPercent(position->eval));
    }
    return percents;
}

nlohmann::json sideJson(const SideSummary& side) {
    return {{"accuracy", rounded(side.accuracy)}, {"inaccuracies", side.inaccuracies},
            {"mistakes", side.mistakes},          {"blunders", side.blunders},
            {"acpl", rounded(side.acpl)},         {"moves", side.moves}};
}

}  // namespace

nlohmann::json scoreJson(const Eval& eval) {
    if (eval.isMate()) return {{"mate", eval.value}};
    return {{"cp", eval.value}};
}

std::size_t positionsDone(const ReviewState& state) {
    std::size_t done = 0;
    for (const auto& position : state.positions) done += position.has_value();
    return done;
}

std::optional<nlohmann::json> reviewedMoveJson(const ReviewGame& game, const ReviewState& state,
                                               std::size_t ply) {
    const std::optional<MoveVerdict> verdict = verdictOf(game, state, ply);
    if (!verdict) return std::nullopt;
    const PositionEval& before = *state.positions[ply - 1];
    const PositionEval& after = *state.positions[ply];
    const std::string& move = game.moves[ply - 1];
    nlohmann::json json = {{"ply", ply},
                           {"move", move},
                           {"san", game.san[ply - 1]},
                           {"side", game.positions[ply - 1].whiteToMove() ? "white" : "black"},
                           {"before", scoreJson(before.eval)},
                           {"after", scoreJson(after.eval)},
                           {"winBefore", rounded(verdict->winBefore)},
                           {"winAfter", rounded(verdict->winAfter)},
                           {"winLoss", rounded(verdict->winLoss)},
                           {"cpLoss", verdict->cpLoss},
                           {"accuracy", rounded(verdict->accuracy)},
                           {"class", toString(verdict->moveClass)}};
    if (verdict->missedMate) json["missedMate"] = true;
    if (verdict->walkedIntoMate) json["walkedIntoMate"] = true;
    if (!before.bestmove.empty() && before.bestmove != move) {
        const ChessState& position = game.positions[ply - 1];
        std::vector<std::string> pv = before.pv;
        if (pv.empty() || pv.front() != before.bestmove) pv = {before.bestmove};
        json["best"] = {{"move", before.bestmove},
                        {"san", position.san(before.bestmove)},
                        {"pv", pv},
                        {"pvSan", position.sanLine(pv)}};
    }
    return json;
}

nlohmann::json reviewJson(const ReviewGame& game, const ReviewState& state) {
    nlohmann::json json = {{"id", state.id}, {"status", state.status}};
    if (!state.gameId.empty()) {
        json["gameId"] = state.gameId;
        json["gameVersion"] = state.gameVersion;
    }
    if (!state.error.empty()) json["error"] = state.error;
    json["initialFen"] = game.initialFen;
    json["moves"] = game.moves;
    json["san"] = game.san;
    addOpening(json, game.initialFen, game.moves);
    json["limitsApplied"] = state.limitsApplied;
    if (state.timeCapped > 0) json["timeCapped"] = state.timeCapped;
    json["done"] = positionsDone(state);
    json["total"] = game.total();
    nlohmann::json plies = nlohmann::json::array();
    std::vector<MoveVerdict> white;
    std::vector<MoveVerdict> black;
    for (std::size_t ply = 1; ply < game.total(); ++ply) {
        if (auto move = reviewedMoveJson(game, state, ply)) plies.push_back(std::move(*move));
        if (auto verdict = verdictOf(game, state, ply)) {
            (game.positions[ply - 1].whiteToMove() ? white : black).push_back(*verdict);
        }
    }
    json["plies"] = std::move(plies);
    if (state.status != "running") {
        const GameAccuracy accuracy =
            gameAccuracy(accuracyWinPercents(state), game.positions.front().whiteToMove());
        json["summary"] = {{"white", sideJson(summarize(white, accuracy.white))},
                           {"black", sideJson(summarize(black, accuracy.black))}};
    }
    return json;
}

}  // namespace outpost::server::review
