// SearchConfig's name lookup: the one place where technique names (UCI options, the server's
// `options` object) become typed fields. The search itself only reads the fields.
#include <array>
#include <string>
#include <string_view>

#include "engine.h"

namespace outpost {
namespace {

struct SwitchField {
    std::string_view name;
    bool SearchConfig::*field;
};

// Declaration order of SearchConfig, so list() reads like the struct.
constexpr std::array kSwitches{
    SwitchField{"aspiration", &SearchConfig::aspiration},
    SwitchField{"transpositionTable", &SearchConfig::transpositionTable},
    SwitchField{"killers", &SearchConfig::killers},
    SwitchField{"history", &SearchConfig::history},
    SwitchField{"mvvLva", &SearchConfig::mvvLva},
    SwitchField{"recaptureFirst", &SearchConfig::recaptureFirst},
    SwitchField{"see", &SearchConfig::see},
    SwitchField{"quiescenceChecks", &SearchConfig::quiescenceChecks},
    SwitchField{"twoSidedQuiescence", &SearchConfig::twoSidedQuiescence},
    SwitchField{"deltaPruning", &SearchConfig::deltaPruning},
    SwitchField{"nullMove", &SearchConfig::nullMove},
    SwitchField{"futility", &SearchConfig::futility},
    SwitchField{"extendedFutility", &SearchConfig::extendedFutility},
    SwitchField{"razoring", &SearchConfig::razoring},
    SwitchField{"aggressiveFutility", &SearchConfig::aggressiveFutility},
    SwitchField{"lateMoveReductions", &SearchConfig::lateMoveReductions},
    SwitchField{"checkExtension", &SearchConfig::checkExtension},
    SwitchField{"mateDistancePruning", &SearchConfig::mateDistancePruning},
    SwitchField{"reverseFutility", &SearchConfig::reverseFutility},
    SwitchField{"lateMovePruning", &SearchConfig::lateMovePruning},
    SwitchField{"internalIterativeReductions", &SearchConfig::internalIterativeReductions},
    SwitchField{"continuationHistory", &SearchConfig::continuationHistory},
    SwitchField{"captureHistory", &SearchConfig::captureHistory},
    SwitchField{"counterMoves", &SearchConfig::counterMoves},
    SwitchField{"historyPruning", &SearchConfig::historyPruning},
    SwitchField{"seeQuietPruning", &SearchConfig::seeQuietPruning},
    SwitchField{"correctionHistory", &SearchConfig::correctionHistory},
    SwitchField{"singularExtensions", &SearchConfig::singularExtensions},
    SwitchField{"nodeShareTime", &SearchConfig::nodeShareTime},
    SwitchField{"fallingEvalTime", &SearchConfig::fallingEvalTime},
    SwitchField{"probCut", &SearchConfig::probCut},
    SwitchField{"ttPv", &SearchConfig::ttPv},
    SwitchField{"extendedLateMoveReductions", &SearchConfig::extendedLateMoveReductions},
    SwitchField{"singularExtended", &SearchConfig::singularExtended},
    SwitchField{"correctionHistoryExtended", &SearchConfig::correctionHistoryExtended},
    SwitchField{"continuationHistory4", &SearchConfig::continuationHistory4},
    SwitchField{"ttCaptureReduction", &SearchConfig::ttCaptureReduction},
    SwitchField{"childCutoffReduction", &SearchConfig::childCutoffReduction},
    SwitchField{"failHighBlend", &SearchConfig::failHighBlend},
    SwitchField{"quiescenceTableEval", &SearchConfig::quiescenceTableEval},
    SwitchField{"improvingFallback", &SearchConfig::improvingFallback},
    SwitchField{"captureHistoryOrdering", &SearchConfig::captureHistoryOrdering},
    SwitchField{"ttCutoffHistory", &SearchConfig::ttCutoffHistory},
    SwitchField{"evalDiffHistory", &SearchConfig::evalDiffHistory},
    SwitchField{"reverseFutilityBlend", &SearchConfig::reverseFutilityBlend},
    SwitchField{"threatOrdering", &SearchConfig::threatOrdering},
    SwitchField{"checkOrdering", &SearchConfig::checkOrdering},
    SwitchField{"threatHistory", &SearchConfig::threatHistory},
    SwitchField{"network", &SearchConfig::network},
};

}  // namespace

bool SearchConfig::set(std::string_view name, bool on) {
    for (const auto& s : kSwitches) {
        if (s.name == name) {
            this->*s.field = on;
            return true;
        }
    }
    return false;
}

std::optional<bool> SearchConfig::get(std::string_view name) const {
    for (const auto& s : kSwitches) {
        if (s.name == name) return this->*s.field;
    }
    return std::nullopt;
}

std::vector<std::pair<std::string, bool>> SearchConfig::list() const {
    std::vector<std::pair<std::string, bool>> out;
    out.reserve(kSwitches.size());
    for (const auto& s : kSwitches) out.emplace_back(std::string(s.name), this->*s.field);
    return out;
}

}  // namespace outpost
