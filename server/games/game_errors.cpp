#include "games/game_errors.h"

#include "errors/error_codes.h"

namespace outpost::server {

ApiError corruptGame(const std::string& id, const std::string& why) {
    return {ErrorStatus::internal_server_error, errors::corrupt_game,
            "the stored game '" + id + "' is damaged: " + why};
}
ApiError storeError(StoreStatus status, const std::string& id) {
    switch (status) {
        case StoreStatus::NotFound:
            return {ErrorStatus::not_found, errors::not_found, "no game " + quotedInput(id)};
        case StoreStatus::VersionConflict:
            return conflict(errors::version_conflict,
                            "the game changed meanwhile; reload it and retry");
        case StoreStatus::Unavailable:
            return {ErrorStatus::service_unavailable, errors::store_unavailable,
                    "the game store is unavailable", 1};
        case StoreStatus::Corrupt:
            return corruptGame(id, "its stored document cannot be read");
        case StoreStatus::Unconfirmed:
            return {ErrorStatus::service_unavailable, errors::write_unconfirmed,
                    "the change reached the store but too few replicas confirmed it in time: it "
                    "may be kept or lost; read the game to know",
                    1};
        case StoreStatus::Unanswered:
            return {ErrorStatus::service_unavailable, errors::write_unconfirmed,
                    "the change was sent to the store but its answer never came: it may have been "
                    "made; read the game to know",
                    1};
        default:
            break;
    }
    return {ErrorStatus::internal_server_error, errors::internal,
            std::string("store: ") + toString(status)};
}

}  // namespace outpost::server
