// An ApiError as an HTTP response: its status is the HTTP status of the same number.
#pragma once

#include "errors/api_error.h"
#include "http/http_types.h"

namespace outpost::server {

http::status toHttpStatus(ErrorStatus status);

Response errorFor(const Request& request, const ApiError& error);

}  // namespace outpost::server
