#include "router.h"

#include <array>
#include <vector>

#include "handlers/analysis_handler.h"
#include "handlers/cached_analysis_handler.h"
#include "handlers/engine_info_handler.h"
#include "handlers/game_handlers.h"
#include "handlers/game_list_handler.h"
#include "handlers/offer_handlers.h"
#include "handlers/review_handlers.h"
#include "handlers/service_handlers.h"
#include "handlers/static_handler.h"
#include "http/cors.h"
#include "http/json_response.h"

namespace outpost::server {

namespace {

std::vector<std::string> splitPath(std::string_view path) {
    std::vector<std::string> segments;
    std::size_t start = 0;
    while (start < path.size()) {
        if (path[start] == '/') {
            ++start;
            continue;
        }
        std::size_t end = path.find('/', start);
        if (end == std::string_view::npos) end = path.size();
        segments.emplace_back(path.substr(start, end - start));
        start = end;
    }
    return segments;
}

void methodNotAllowed(const Request& request, const std::shared_ptr<ResponseSink>& sink,
                      const char* allow) {
    Response response =
        errorFor(request, http::status::method_not_allowed, "method_not_allowed",
                 std::string(request.method_string()) + " is not allowed here; use " + allow);
    response.set(http::field::allow, allow);
    sink->respond(std::move(response));
}

bool isGet(const Request& request) {
    return request.method() == http::verb::get || request.method() == http::verb::head;
}

// Offers and endings between people (games/offers.h): POST, after /api/v1/games/{id}/.
struct OfferRoute {
    const char* path;  // the rest of the path, one or two segments
    OfferAction action;
};

constexpr std::array<OfferRoute, 7> kOfferRoutes = {{
    {"draw/yes", OfferAction::DrawYes},
    {"draw/no", OfferAction::DrawNo},
    {"takeback/yes", OfferAction::TakebackYes},
    {"takeback/no", OfferAction::TakebackNo},
    {"abort", OfferAction::Abort},
    {"claim-victory", OfferAction::ClaimVictory},
    {"claim-draw", OfferAction::ClaimDraw},
}};

struct GameRoute {
    const char* suffix;
    GameAction action;
    http::verb method;
};

constexpr std::array<GameRoute, 6> kGameRoutes = {{
    {"moves", GameAction::Move, http::verb::post},
    {"engine-move", GameAction::EngineMove, http::verb::post},
    {"takeback", GameAction::Takeback, http::verb::post},
    {"resign", GameAction::Resign, http::verb::post},
    {"pgn", GameAction::Pgn, http::verb::get},
    {"stream", GameAction::Stream, http::verb::get},
}};

// Runs a handler that reads or writes the game store on the store executor, never on the I/O
// thread that called the router (a hung Redis or a slow fsync would stall every connection of
// the replica, /healthz included). The route label is known before, so it is returned at once.
// An exception is answered 500 `internal` (and ends a stream that had begun), logged and counted.
template <typename Handler>
void offload(ServerContext& context, Request&& request, const std::shared_ptr<ResponseSink>& sink,
             Handler handler) {
    auto owned = std::make_shared<Request>(std::move(request));
    context.storeWork.post([&context, owned, sink, handler = std::move(handler)] {
        try {
            handler(*owned);
        } catch (const std::exception& error) {
            context.metrics.internalError("http");
            context.logger.log({{"event", "internal_error"},
                                {"where", "http"},
                                {"target", std::string(owned->target())},
                                {"error", error.what()}});
            sink->respond(errorFor(*owned, http::status::internal_server_error, "internal",
                                   "internal error; it was logged"));
            sink->endStream();
        }
    });
}

}  // namespace

std::string handleHttp(ServerContext& context, Request&& request, const ClientInfo& client,
                       const std::shared_ptr<ResponseSink>& sink) {
    const std::string_view target(request.target().data(), request.target().size());
    const std::string_view path = target.substr(0, target.find_first_of("?#"));

    if (request.method() == http::verb::options) {
        sink->respond(preflightResponse(request, context.config.corsOrigins));
        return "preflight";
    }

    if (path == "/healthz") {
        if (!isGet(request))
            methodNotAllowed(request, sink, "GET");
        else
            sink->respond(handleHealth(request));
        return "/healthz";
    }
    if (path == "/readyz") {
        if (!isGet(request))
            methodNotAllowed(request, sink, "GET");
        else
            offload(context, std::move(request), sink, [&context, sink](const Request& owned) {
                sink->respond(handleReady(owned, context));
            });
        return "/readyz";
    }
    if (path == "/metrics") {
        if (!isGet(request))
            methodNotAllowed(request, sink, "GET");
        else
            offload(context, std::move(request), sink, [&context, sink](const Request& owned) {
                sink->respond(handleMetrics(owned, context));
            });
        return "/metrics";
    }

    const std::vector<std::string> segments = splitPath(path);
    if (segments.size() >= 2 && segments[0] == "api" && segments[1] == "v1") {
        const std::size_t count = segments.size();
        if (count == 3 && segments[2] == "openapi.yaml") {
            if (!isGet(request))
                methodNotAllowed(request, sink, "GET");
            else
                sink->respond(handleOpenApi(request));
            return "/api/v1/openapi.yaml";
        }
        if (count == 3 && segments[2] == "engine") {
            if (!isGet(request))
                methodNotAllowed(request, sink, "GET");
            else
                sink->respond(handleEngineInfo(request, context));
            return "/api/v1/engine";
        }
        if (count == 3 && segments[2] == "analysis") {
            if (request.method() == http::verb::post)
                handleAnalysis(context, request, client, sink);
            else if (isGet(request))
                offload(context, std::move(request), sink, [&context, sink](const Request& owned) {
                    sink->respond(handleCachedAnalysis(context, owned));
                });
            else
                methodNotAllowed(request, sink, "GET, POST");
            return "/api/v1/analysis";
        }
        if (count == 3 && segments[2] == "ws") {
            // A WebSocket upgrade never reaches the router (the session hands it over).
            sink->respond(errorFor(request, http::status::bad_request, "bad_request",
                                   "this route takes a WebSocket upgrade"));
            return "/api/v1/ws";
        }
        if (count == 3 && segments[2] == "games") {
            if (request.method() == http::verb::post)
                offload(context, std::move(request), sink,
                        [&context, client, sink](const Request& owned) {
                            handleCreateGame(context, owned, client, sink);
                        });
            else if (isGet(request))
                offload(context, std::move(request), sink, [&context, sink](const Request& owned) {
                    handleListGames(context, owned, sink);
                });
            else
                methodNotAllowed(request, sink, "GET, POST");
            return "/api/v1/games";
        }
        if (count == 4 && segments[2] == "games") {
            if (!isGet(request))
                methodNotAllowed(request, sink, "GET");
            else
                offload(context, std::move(request), sink,
                        [&context, id = segments[3], client, sink](const Request& owned) {
                            handleGameAction(context, GameAction::Get, id, owned, client, sink);
                        });
            return "/api/v1/games/{id}";
        }
        if (count == 3 && segments[2] == "review") {
            if (request.method() != http::verb::post)
                methodNotAllowed(request, sink, "POST");
            else
                offload(context, std::move(request), sink,
                        [&context, client, sink](const Request& owned) {
                            handleStartReview(context, owned, client, sink);
                        });
            return "/api/v1/review";
        }
        if (count == 4 && segments[2] == "reviews") {
            if (!isGet(request))
                methodNotAllowed(request, sink, "GET");
            else
                offload(context, std::move(request), sink,
                        [&context, id = segments[3], sink](const Request& owned) {
                            handleReviewAction(context, ReviewAction::Get, id, owned, sink);
                        });
            return "/api/v1/reviews/{reviewId}";
        }
        if (count == 5 && segments[2] == "reviews" && segments[4] == "stream") {
            if (!isGet(request))
                methodNotAllowed(request, sink, "GET");
            else
                offload(context, std::move(request), sink,
                        [&context, id = segments[3], sink](const Request& owned) {
                            handleReviewAction(context, ReviewAction::Stream, id, owned, sink);
                        });
            return "/api/v1/reviews/{reviewId}/stream";
        }
        if (count == 5 && segments[2] == "reviews" && segments[4] == "stop") {
            if (request.method() != http::verb::post)
                methodNotAllowed(request, sink, "POST");
            else
                offload(context, std::move(request), sink,
                        [&context, id = segments[3], sink](const Request& owned) {
                            handleReviewAction(context, ReviewAction::Stop, id, owned, sink);
                        });
            return "/api/v1/reviews/{reviewId}/stop";
        }
        if (count == 5 && segments[2] == "games" && segments[4] == "review") {
            // Any viewer may start a review or read it: no token.
            if (request.method() == http::verb::post)
                offload(context, std::move(request), sink,
                        [&context, id = segments[3], client, sink](const Request& owned) {
                            handleStartGameReview(context, id, owned, client, sink);
                        });
            else if (isGet(request))
                offload(context, std::move(request), sink,
                        [&context, id = segments[3], sink](const Request& owned) {
                            handleGetGameReview(context, id, owned, sink);
                        });
            else
                methodNotAllowed(request, sink, "GET, POST");
            return "/api/v1/games/{id}/review";
        }
        if ((count == 5 || count == 6) && segments[2] == "games") {
            const std::string rest = count == 5 ? segments[4] : segments[4] + "/" + segments[5];
            for (const OfferRoute& route : kOfferRoutes) {
                if (rest != route.path) continue;
                if (request.method() != http::verb::post) {
                    methodNotAllowed(request, sink, "POST");
                } else {
                    offload(context, std::move(request), sink,
                            [&context, action = route.action, id = segments[3], client,
                             sink](const Request& owned) {
                                handleOfferAction(context, action, id, owned, client, sink);
                            });
                }
                return std::string("/api/v1/games/{id}/") + route.path;
            }
        }
        if (count == 5 && segments[2] == "games") {
            for (const GameRoute& route : kGameRoutes) {
                if (segments[4] != route.suffix) continue;
                const std::string label = std::string("/api/v1/games/{id}/") + route.suffix;
                const bool methodOk = route.method == http::verb::get
                                          ? isGet(request)
                                          : request.method() == route.method;
                if (!methodOk) {
                    methodNotAllowed(request, sink,
                                     route.method == http::verb::get ? "GET" : "POST");
                } else {
                    offload(context, std::move(request), sink,
                            [&context, action = route.action, id = segments[3], client,
                             sink](const Request& owned) {
                                handleGameAction(context, action, id, owned, client, sink);
                            });
                }
                return label;
            }
        }
        sink->respond(errorFor(request, http::status::not_found, "not_found",
                               "no route " + std::string(path)));
        return "unknown";
    }

    if (!isGet(request)) {
        methodNotAllowed(request, sink, "GET");
        return "static";
    }
    // The first request reads the page's files, and a rebuilt page is read again: off the I/O
    // thread.
    offload(context, std::move(request), sink, [&context, sink](const Request& owned) {
        sink->respond(handleStaticFile(owned, context.staticFiles));
    });
    return "static";
}

}  // namespace outpost::server
