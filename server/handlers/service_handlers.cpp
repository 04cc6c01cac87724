#include "handlers/service_handlers.h"

#include <cstdlib>

#include "api/openapi_document.h"
#include "games/game_clock.h"
#include "http/json_response.h"

namespace outpost::server {

Response handleHealth(const Request& request) {
    return jsonFor(request, http::status::ok, {{"status", "ok"}});
}

Response handleReady(const Request& request, ServerContext& context) {
    const bool ready = context.ready.load() && !context.draining.load() && context.store->healthy();
    // A replica that started before the store could be reached counts in its own wall clock
    // until the store's clock is read: read it now, before the load balancer sends it a move
    // (the next clock sweep may be seconds away). A store without a clock answers at once.
    if (ready && !context.clock.synced()) context.measureClock();
    if (ready && context.config.maxClockSkewMs > 0) {
        // This replica's clock against the store's: the offset the cluster clock measured
        // (at start and with every clock sweep), read with its sign turned.
        const std::int64_t skewMs = -context.clock.offsetMs();
        if (std::abs(skewMs) > context.config.maxClockSkewMs) {
            return jsonFor(request, http::status::service_unavailable,
                           {{"status", "clock_skew"}, {"clockSkewMs", skewMs}});
        }
    }
    if (ready) return jsonFor(request, http::status::ok, {{"status", "ready"}});
    const char* status = context.draining.load() ? "draining" : "not_ready";
    return jsonFor(request, http::status::service_unavailable, {{"status", status}});
}

Response handleMetrics(const Request& request, ServerContext& context) {
    Response response{http::status::ok, request.version()};
    response.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
    response.keep_alive(request.keep_alive());
    response.body() = context.metrics.render(context.gauges());
    response.prepare_payload();
    return response;
}

Response handleOpenApi(const Request& request) {
    Response response{http::status::ok, request.version()};
    response.set(http::field::content_type, "application/yaml");
    response.keep_alive(request.keep_alive());
    response.body() = std::string(api::openApiDocument());
    response.prepare_payload();
    return response;
}

}  // namespace outpost::server
