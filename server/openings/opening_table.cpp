#include "openings/opening_table.h"

#include <stdexcept>

#include "core/notation.h"
#include "core/position.h"

namespace outpost::server {

namespace {

constexpr std::string_view kHeader = "eco\tname\tpgn";
constexpr char kColumnSeparator = '\t';

std::string_view trimmed(std::string_view text) {
    constexpr std::string_view kSpace = " \t\r";
    const std::size_t first = text.find_first_not_of(kSpace);
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

// "1. e4 e5 2. Nf3": the moves without their numbers ("1.", "12...").
std::vector<std::string_view> sanMoves(std::string_view pgn) {
    std::vector<std::string_view> moves;
    std::size_t at = 0;
    while (at < pgn.size()) {
        const std::size_t end = std::min(pgn.find(' ', at), pgn.size());
        const std::string_view token = pgn.substr(at, end - at);
        if (!token.empty() && token.back() != '.') moves.push_back(token);
        at = end + 1;
    }
    return moves;
}

struct Row {
    std::string_view eco;
    std::string_view name;
    std::string_view pgn;
};

std::optional<Row> splitRow(std::string_view line) {
    const std::size_t first = line.find(kColumnSeparator);
    if (first == std::string_view::npos) return std::nullopt;
    const std::size_t second = line.find(kColumnSeparator, first + 1);
    if (second == std::string_view::npos) return std::nullopt;
    if (line.find(kColumnSeparator, second + 1) != std::string_view::npos) return std::nullopt;
    Row row{trimmed(line.substr(0, first)), trimmed(line.substr(first + 1, second - first - 1)),
            trimmed(line.substr(second + 1))};
    if (row.eco.empty() || row.name.empty() || row.pgn.empty()) return std::nullopt;
    return row;
}

}  // namespace

OpeningTable OpeningTable::fromTsv(std::span<const OpeningTsv> files) {
    OpeningTable table;
    // Neighbouring rows mostly share their first moves: the position of the previous row is taken
    // back to the common beginning instead of replaying every row from the start (several times
    // faster at start).
    Position position = Position::startPosition();
    std::vector<std::string_view> played;
    for (const OpeningTsv& file : files) {
        std::size_t lineNumber = 0;
        std::size_t at = 0;
        while (at < file.text.size()) {
            const std::size_t end = std::min(file.text.find('\n', at), file.text.size());
            const std::string_view line = trimmed(file.text.substr(at, end - at));
            at = end + 1;
            ++lineNumber;
            if (line.empty() || (lineNumber == 1 && line == kHeader)) continue;
            auto where = [&] {
                return std::string(file.name) + ":" + std::to_string(lineNumber) + ": ";
            };
            const std::optional<Row> row = splitRow(line);
            if (!row) throw std::invalid_argument(where() + "expected eco, name and pgn columns");

            const std::vector<std::string_view> moves = sanMoves(row->pgn);
            std::size_t shared = 0;
            while (shared < moves.size() && shared < played.size() &&
                   moves[shared] == played[shared]) {
                ++shared;
            }
            for (; played.size() > shared; played.pop_back()) position.unmakeMove();
            for (std::size_t i = shared; i < moves.size(); ++i) {
                std::string reason;
                const std::optional<Move> move = moveFromSan(position, moves[i], &reason);
                if (!move) {
                    throw std::invalid_argument(where() + "move '" + std::string(moves[i]) +
                                                "': " + reason);
                }
                position.makeMove(*move);
                played.push_back(moves[i]);
            }
            const int plies = static_cast<int>(moves.size());
            if (plies == 0) throw std::invalid_argument(where() + "no moves");

            ++table.lines_;
            table.maxPly_ = std::max(table.maxPly_, plies);
            Entry entry{Opening{std::string(row->eco), std::string(row->name)}, plies};
            auto [found, inserted] = table.byKey_.try_emplace(position.key(), entry);
            if (!inserted && plies < found->second.plies) found->second = std::move(entry);
        }
    }
    return table;
}

std::optional<Opening> OpeningTable::classify(std::string_view initialFen,
                                              const std::vector<std::string>& moves) const {
    std::optional<Position> position = initialFen.empty()
                                           ? std::optional<Position>(Position::startPosition())
                                           : Position::fromFen(initialFen);
    if (!position) return std::nullopt;
    const Entry* latest = nullptr;
    auto look = [&] {
        const auto found = byKey_.find(position->key());
        if (found != byKey_.end()) latest = &found->second;
    };
    look();
    const std::size_t plies = std::min(moves.size(), static_cast<std::size_t>(maxPly_));
    for (std::size_t ply = 0; ply < plies; ++ply) {
        const std::optional<Move> move = moveFromUci(*position, moves[ply]);
        if (!move) break;
        position->makeMove(*move);
        look();
    }
    if (!latest) return std::nullopt;
    return latest->opening;
}

}  // namespace outpost::server
