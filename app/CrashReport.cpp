#include "app/CrashReport.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <typeinfo>

#include <cxxabi.h>
#include <execinfo.h>
#include <unistd.h>

namespace md {

namespace {

constexpr int kFatalSignals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL};

void writeText(const char *s)
{
    [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, s, std::strlen(s));
}

void writeTrace()
{
    void *frames[64];
    const int n = ::backtrace(frames, 64);
    writeText("fatal: stack trace follows\n");
    ::backtrace_symbols_fd(frames, n, STDERR_FILENO);
}

// Only async-signal-safe calls from here on (backtrace() was primed at
// installation, so it does not load libgcc now).
void onFatalSignal(int sig)
{
    writeText("fatal: ");
    writeText(sigabbrev_np(sig) ? sigabbrev_np(sig) : "signal");
    writeText(" (");
    writeText(sigdescr_np(sig) ? sigdescr_np(sig) : "?");
    writeText(")\n");
    writeTrace();
    std::signal(sig, SIG_DFL);
    ::raise(sig);
}

void onTerminate()
{
    // std::terminate: usually an exception nobody caught. Name it and its
    // message before the abort below reports the stack.
    if (const std::exception_ptr current = std::current_exception()) {
        writeText("fatal: uncaught exception");
        try {
            std::rethrow_exception(current);
        } catch (const std::exception &e) {
            writeText(" of type ");
            int status = 0;
            char *name = abi::__cxa_demangle(typeid(e).name(), nullptr, nullptr, &status);
            writeText(status == 0 && name ? name : typeid(e).name());
            std::free(name);
            writeText(": ");
            writeText(e.what());
        } catch (...) {
            writeText(" (not a std::exception)");
        }
        writeText("\n");
    } else {
        writeText("fatal: std::terminate called\n");
    }
    std::abort();
}

} // namespace

void installCrashReport()
{
    void *prime[1];
    ::backtrace(prime, 1);
    std::set_terminate(onTerminate);
    struct sigaction sa = {};
    sa.sa_handler = onFatalSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;
    for (const int sig : kFatalSignals)
        sigaction(sig, &sa, nullptr);
}

} // namespace md
