#include "api/json_types.h"

#include <cmath>

namespace outpost::api {

namespace {
// Centipawns at which the logistic win chance reaches about 91% (10:1 odds): the usual Elo-like
// scale used by web frontends.
constexpr double kWinChanceScaleCp = 400.0;
}  // namespace

double winChance(int whiteCp) {
    return 1.0 / (1.0 + std::pow(10.0, -static_cast<double>(whiteCp) / kWinChanceScaleCp));
}

nlohmann::json scoreJson(const Score& score, bool whiteToMove) {
    const int sign = whiteToMove ? 1 : -1;
    const int value = sign * score.value;
    nlohmann::json json = nlohmann::json::object();
    if (score.kind == Score::Kind::Mate) {
        json["mate"] = value;
        json["winChance"] = value > 0 ? 1.0 : value < 0 ? 0.0 : 0.5;
    } else {
        json["cp"] = value;
        json["winChance"] = winChance(value);
    }
    // Seen from the other side, a lower bound becomes an upper bound.
    Score::Bound bound = score.bound;
    if (!whiteToMove && bound != Score::Bound::Exact) {
        bound = bound == Score::Bound::Lower ? Score::Bound::Upper : Score::Bound::Lower;
    }
    if (bound == Score::Bound::Lower) json["bound"] = "lower";
    if (bound == Score::Bound::Upper) json["bound"] = "upper";
    return json;
}

nlohmann::json infoJson(const SearchInfo& info, bool whiteToMove,
                        const std::vector<std::string>& pvSan) {
    return {{"depth", info.depth},     {"seldepth", info.seldepth},
            {"multipv", info.multipv}, {"score", scoreJson(info.score, whiteToMove)},
            {"nodes", info.nodes},     {"nps", info.nps},
            {"timeMs", info.timeMs},   {"hashfull", info.hashfull},
            {"pv", info.pv},           {"pvSan", pvSan}};
}

}  // namespace outpost::api
