// Issue 40: OpenSSL's atexit cleanup (OPENSSL_cleanup) freed every thread's
// OpenSSL state while a thread that had used it through librdkafka was still
// ending (QThread::wait() and QThreadPool::waitForDone() return before a
// thread's thread-local destructors run). Both freed the same memory; glibc
// aborted in that thread's exit ("malloc_consolidate(): invalid chunk size"),
// seen after `run` and `verify`. A process that makes a librdkafka client
// through makeKafkaConf must therefore end with no OpenSSL cleanup at exit.
// Checked in a child process: an atexit handler registered before OpenSSL is
// first used runs after OpenSSL's own one would, and asks OpenSSL to
// initialise again, which fails once OPENSSL_cleanup ran.
#include "engine/core/ClusterConfig.h"
#include "engine/core/KafkaHandles.h"

#include <QTest>

#include <openssl/crypto.h>

#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

using namespace md;

namespace {

void checkOpenSslStillUp()
{
    // After OPENSSL_cleanup OpenSSL refuses to initialise again.
    _exit(OPENSSL_init_crypto(0, nullptr) == 1 ? 0 : 1);
}

// In the child: a librdkafka client, as every engine client is made, then exit().
[[noreturn]] void childMakesAClientAndExits()
{
    std::atexit(checkOpenSslStillUp); // before OpenSSL registers anything
    ClusterConfig cluster;
    cluster.bootstrap = QStringLiteral("127.0.0.1:1");
    ConfResult conf = makeKafkaConf(cluster, ClientRole::Producer, {});
    if (!conf.conf)
        _exit(2);
    char errstr[256];
    KafkaPtr rk(rd_kafka_new(RD_KAFKA_PRODUCER, conf.conf.release(), errstr, sizeof errstr));
    if (!rk)
        _exit(3);
    rk.reset();
    std::exit(0);
}

} // namespace

class TstOpenSslExit final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void noOpenSslCleanupAtExit()
    {
        // This process must not have used OpenSSL yet: the child inherits its atexit handlers.
        const pid_t pid = fork();
        QVERIFY(pid >= 0);
        if (pid == 0)
            childMakesAClientAndExits();
        int status = 0;
        QCOMPARE(waitpid(pid, &status, 0), pid);
        QVERIFY2(WIFEXITED(status), "the child did not exit normally");
        QVERIFY2(WEXITSTATUS(status) != 1, "OPENSSL_cleanup ran at exit: it races threads still ending");
        QCOMPARE(WEXITSTATUS(status), 0);
    }
};

QTEST_GUILESS_MAIN(TstOpenSslExit)
#include "tst_opensslexit.moc"
