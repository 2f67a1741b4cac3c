#include "engine/core/OpenSslExit.h"

#include <openssl/crypto.h>

#include <mutex>

namespace md {

void disableOpenSslExitCleanup()
{
    static std::once_flag once;
    // The first OPENSSL_init_crypto decides whether the atexit handler is registered.
    std::call_once(once, [] { OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, nullptr); });
}

} // namespace md
