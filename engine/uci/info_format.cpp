#include "uci/info_format.h"

#include <sstream>

namespace outpost::uci {

std::string formatInfo(const SearchInfo& info) {
    std::ostringstream line;
    line << "info depth " << info.depth << " seldepth " << info.seldepth << " multipv "
         << info.multipv << " score " << (info.score.kind == Score::Kind::Mate ? "mate " : "cp ")
         << info.score.value;
    if (info.score.bound == Score::Bound::Lower) line << " lowerbound";
    if (info.score.bound == Score::Bound::Upper) line << " upperbound";
    line << " nodes " << info.nodes << " nps " << info.nps << " hashfull " << info.hashfull
         << " time " << info.timeMs;
    if (!info.pv.empty()) {
        line << " pv";
        for (const std::string& move : info.pv) line << ' ' << move;
    }
    return line.str();
}

std::string formatCurrMove(const std::string& move, int number, int depth) {
    std::ostringstream line;
    line << "info depth " << depth << " currmove " << move << " currmovenumber " << number;
    return line.str();
}

std::string ponderFromResult(const SearchResult& result) {
    if (!result.ponder.empty()) return result.ponder;
    const std::vector<std::string>& pv = result.info.pv;
    if (pv.size() >= 2 && pv[0] == result.bestmove) return pv[1];
    return {};
}

std::string formatBestMove(const SearchResult& result, const std::string& fallbackPonder) {
    const std::string bestmove = result.bestmove.empty() ? "0000" : result.bestmove;
    std::string line = "bestmove " + bestmove;
    if (bestmove == "0000") return line;
    std::string ponder = ponderFromResult(result);
    if (ponder.empty()) ponder = fallbackPonder;
    if (!ponder.empty()) line += " ponder " + ponder;
    return line;
}

}  // namespace outpost::uci
