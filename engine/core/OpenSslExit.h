#pragma once

namespace md {

// Before OpenSSL is first used (main() does it first, makeKafkaConf before
// every client): OpenSSL then registers no atexit cleanup (OPENSSL_cleanup).
// That cleanup frees every thread's OpenSSL state while a thread that used
// OpenSSL (through librdkafka: a task-pool thread, the engine or lag-time
// thread) may still be ending: QThread::wait() and QThreadPool::waitForDone()
// return before the thread's own thread-local destructors ran, OpenSSL's among
// them, so both freed the same state. glibc then aborted in that thread's exit
// with "malloc_consolidate(): invalid chunk size" (issue 40). The process's
// memory goes with it; nothing else is lost. Once per process; later calls do
// nothing.
void disableOpenSslExitCleanup();

} // namespace md
