#include "review/review_pgn.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace outpost::server::review {

namespace {

constexpr int kCentipawnsPerPawn = 100;

int nagOf(const std::string& moveClass) {
    if (moveClass == "inaccuracy") return kNagInaccuracy;
    if (moveClass == "mistake") return kNagMistake;
    if (moveClass == "blunder") return kNagBlunder;
    return 0;
}

}  // namespace

std::string pgnEval(const nlohmann::json& score) {
    if (!score.is_object()) return "";
    if (score.contains("mate") && score.at("mate").is_number_integer()) {
        const int mate = score.at("mate").get<int>();
        return mate == 0 ? "" : "#" + std::to_string(mate);
    }
    if (!score.contains("cp") || !score.at("cp").is_number_integer()) return "";
    const int cp = score.at("cp").get<int>();
    char text[32];
    std::snprintf(text, sizeof text, "%s%d.%02d", cp < 0 ? "-" : "",
                  std::abs(cp) / kCentipawnsPerPawn, std::abs(cp) % kCentipawnsPerPawn);
    return text;
}

std::vector<PgnAnnotation> pgnAnnotations(const GameRecord& game, const nlohmann::json& review) {
    std::vector<PgnAnnotation> notes;
    if (!review.is_object() || !review.contains("moves") || !review.contains("plies")) {
        return notes;
    }
    const nlohmann::json& moves = review.at("moves");
    if (!moves.is_array() || moves.size() > game.moves.size()) return notes;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (!moves[i].is_string() || moves[i].get<std::string>() != game.moves[i]) return notes;
    }
    notes.resize(moves.size());
    for (const nlohmann::json& ply : review.at("plies")) {
        if (!ply.is_object() || !ply.contains("ply") || !ply.at("ply").is_number_integer()) {
            continue;
        }
        const std::int64_t index = ply.at("ply").get<std::int64_t>();
        if (index <= 0 || static_cast<std::size_t>(index) > notes.size()) continue;
        PgnAnnotation& note = notes[index - 1];
        note.nag = nagOf(ply.value("class", ""));
        const std::string eval =
            pgnEval(ply.contains("after") ? ply.at("after") : nlohmann::json());
        if (!eval.empty()) note.comment = "[%eval " + eval + "]";
        if (ply.contains("best") && ply.at("best").is_object() && note.nag > 0) {
            const nlohmann::json& best = ply.at("best");
            if (best.contains("pvSan") && best.at("pvSan").is_array()) {
                for (const auto& san : best.at("pvSan")) {
                    if (san.is_string()) note.variation.push_back(san.get<std::string>());
                }
            }
        }
    }
    return notes;
}

}  // namespace outpost::server::review
