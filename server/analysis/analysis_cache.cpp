#include "analysis/analysis_cache.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <sstream>

#include "server_context.h"

namespace outpost::server {

namespace {

constexpr int kBoardSize = 8;

// FEN fields: placement, side, castling, en passant, halfmove clock, fullmove number.
std::vector<std::string> fenFields(const std::string& fen) {
    std::istringstream in(fen);
    std::vector<std::string> fields;
    for (std::string field; in >> field;) fields.push_back(field);
    return fields;
}

// The piece letter on `square` ("e5") of a FEN placement, or ' ' for an empty square.
char pieceOn(const std::string& placement, std::string_view square) {
    const int file = square[0] - 'a';
    const int rank = square[1] - '1';
    int row = kBoardSize - 1;  // FEN lists rank 8 first
    int column = 0;
    for (char c : placement) {
        if (c == '/') {
            --row;
            column = 0;
        } else if (c >= '1' && c <= '8') {
            column += c - '0';
        } else {
            if (row == rank && column == file) return c;
            ++column;
        }
    }
    return ' ';
}

// True when a pawn of the side to move can take en passant on `target`.
bool enPassantPlayable(const ChessState& state, const std::string& placement,
                       const std::string& target) {
    const char pawn = state.whiteToMove() ? 'P' : 'p';
    for (const std::string& move : state.legalMoves()) {
        if (move.size() < 4 || move.compare(2, 2, target) != 0) continue;
        if (move[0] != target[0] && pieceOn(placement, std::string_view(move).substr(0, 2)) == pawn)
            return true;
    }
    return false;
}

}  // namespace

std::string analysisCacheKey(const ChessState& state) {
    std::vector<std::string> fields = fenFields(state.fen());
    fields.resize(4, "-");
    if (fields[3] != "-" && !enPassantPlayable(state, fields[0], fields[3])) fields[3] = "-";
    return fields[0] + " " + fields[1] + " " + fields[2] + " " + fields[3];
}

std::string analysisStoreKey(const std::string& engine, const std::string& positionKey) {
    return engine + " " + positionKey;
}

int halfmoveClock(const ChessState& state) {
    const std::vector<std::string> fields = fenFields(state.fen());
    int clock = 0;
    if (fields.size() > 4)
        std::from_chars(fields[4].data(), fields[4].data() + fields[4].size(), clock);
    return clock;
}

std::int64_t analysisCacheNow() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::optional<AnalysisSlot> analysisCacheSlot(const AnalysisSpec& spec, const JobOutcome& outcome,
                                              int minDepth, std::int64_t now) {
    const SearchRequest& request = spec.request;
    if (!outcome.error.empty() || outcome.result.stopped) return std::nullopt;
    if (!request.limits.searchmoves.empty() || request.level != 0) return std::nullopt;
    if (request.config && *request.config != SearchConfig{}) return std::nullopt;
    const int halfmove = halfmoveClock(*spec.root);
    // A history since the last capture or pawn move: repetitions may decide the lines.
    if (!request.moves.empty() && halfmove != 0) return std::nullopt;
    const nlohmann::json result = analysisResultJson(outcome, spec);
    const nlohmann::json& lines = result.at("lines");
    if (lines.empty()) return std::nullopt;
    int depth = lines.front().at("depth").get<int>();
    for (const auto& line : lines) depth = std::min(depth, line.at("depth").get<int>());
    if (depth < minDepth) return std::nullopt;

    int deepest = std::max(outcome.result.info.seldepth, outcome.result.info.depth);
    for (const SearchInfo& line : outcome.result.lines)
        deepest = std::max({deepest, line.seldepth, line.depth});
    const int clockFreeBelow = kFiftyMovePlies - kFiftyMoveReachFactor * deepest;
    // The search could have met the fifty-move draw: its lines hold for this clock only.
    if (halfmove >= clockFreeBelow) return std::nullopt;

    AnalysisSlot slot;
    slot.madeAt = now;
    slot.depth = depth;
    slot.multipv = static_cast<int>(lines.size());
    // Every legal move has its line: the analysis answers any number of lines asked.
    if (lines.size() >= spec.root->legalMoves().size())
        slot.multipv = std::max(slot.multipv, request.multiPv);
    slot.doc = nlohmann::json{{"depth", depth},
                              {"nodes", outcome.result.info.nodes},
                              {"lines", lines},
                              {"clockFreeBelow", clockFreeBelow}}
                   .dump();
    return slot;
}

std::optional<nlohmann::json> cachedAnalysisAnswer(const std::vector<AnalysisSlot>& slots,
                                                   const std::string& key, int multipv,
                                                   int halfmove, std::int64_t now) {
    const AnalysisSlot* best = nullptr;
    nlohmann::json doc;
    for (const AnalysisSlot& slot : slots) {
        if (slot.multipv < multipv || analysisSlotStale(slot, now)) continue;
        if (best && slot.depth <= best->depth) continue;
        nlohmann::json parsed = nlohmann::json::parse(slot.doc, nullptr, false);
        if (!parsed.is_object() || !parsed.contains("lines") || !parsed["lines"].is_array())
            continue;
        // A slot that does not say up to which clock it holds holds for none.
        const auto clockFreeBelow = parsed.find("clockFreeBelow");
        if (clockFreeBelow == parsed.end() || !clockFreeBelow->is_number_integer() ||
            halfmove >= clockFreeBelow->get<int>())
            continue;
        best = &slot;
        doc = std::move(parsed);
    }
    if (!best) return std::nullopt;
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& line : doc.at("lines")) {
        if (static_cast<int>(lines.size()) == multipv) break;
        lines.push_back(line);
    }
    return nlohmann::json{{"fen", key},
                          {"depth", doc.value("depth", best->depth)},
                          {"nodes", doc.value("nodes", std::uint64_t{0})},
                          {"multipv", multipv},
                          {"lines", std::move(lines)}};
}

void feedAnalysisCache(ServerContext& context, const AnalysisSpec& spec,
                       const JobOutcome& outcome) {
    if (!context.analysisCache || context.config.analysisCacheEntries == 0) return;
    std::optional<AnalysisSlot> slot =
        analysisCacheSlot(spec, outcome, context.config.analysisCacheMinDepth, analysisCacheNow());
    if (!slot) return;
    context.storeWork.post(
        [cache = context.analysisCache,
         key = analysisStoreKey(context.fingerprint, analysisCacheKey(*spec.root)),
         slot = *slot] { cache->put(key, slot); });
}

}  // namespace outpost::server
