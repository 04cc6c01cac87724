#include "http/api_error_response.h"

#include "http/json_response.h"

namespace outpost::server {

http::status toHttpStatus(ErrorStatus status) {
    return static_cast<http::status>(static_cast<unsigned>(status));
}

Response errorFor(const Request& request, const ApiError& error) {
    return errorFor(request, toHttpStatus(error.status), error.code, error.message,
                    error.retryAfterSeconds);
}

}  // namespace outpost::server
