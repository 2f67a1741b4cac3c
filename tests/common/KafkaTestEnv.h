#pragma once

// Where the integration tests find the real brokers that tests/kafka/harness.sh
// started (CTest fixture `kafka`), and how they crash and revive one.
//
// A broker NAME ("source", "target", "sasl") is found, in this order, through
//   1. env MIRRORDESK_<NAME>_BOOTSTRAP (e.g. MIRRORDESK_SOURCE_BOOTSTRAP), for
//      brokers started by hand or elsewhere;
//   2. $MIRRORDESK_KAFKA_STATE/<name>/bootstrap, written by the harness once the
//      broker is ready (default state dir: <build dir>/kafka-state).

#include "engine/core/ClusterConfig.h"

#include <QFileInfo>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QtTest/QTest>

namespace md::test {

// The "sasl" broker: a SASL_PLAINTEXT listener offering SCRAM-SHA-512 and
// SCRAM-SHA-256 (user created at format time) and PLAIN, for the same user and
// password (harness.sh; overridable there with MIRRORDESK_SASL_USER/PASSWORD).
// Tests authenticate with kSaslMechanism unless they test another one.
inline constexpr char kSaslUser[] = "mirrordesk";
inline constexpr char kSaslPassword[] = "mirrordesk-test-secret";
inline constexpr char kSaslMechanism[] = "SCRAM-SHA-512";
inline constexpr char kSaslScram256Mechanism[] = "SCRAM-SHA-256";
inline constexpr char kSaslPlainMechanism[] = "PLAIN";

// The sasl broker's SSL listener ("tls" to bootstrap(), clientProperties() and
// clusterConfig()): mutual TLS with a throw-away CA the harness makes at start.
// tlsFile() names its files: ca.pem, client.pem, client.key (encrypted with
// tlsKeyPassword()), other-ca.pem (a CA that signed neither side).
inline constexpr char kTlsKeyPassword[] = "mirrordesk-key-secret";
QString tlsFile(const QString &fileName);
QString tlsKeyPassword(); // kTlsKeyPassword unless env MIRRORDESK_TLS_KEY_PASSWORD is set

// The sasl broker's SASL_SSL listeners (harness.sh sasl-ssl-bootstrap; tls.sh),
// SCRAM-SHA-512 with the same user and password, server certificates signed
// by the CA in tlsFile("ca.pem"): "sasl-ssl" (a good certificate for 127.0.0.1
// and localhost), "sasl-ssl-wrong-host" (one for another host name) and
// "sasl-ssl-expired" (expired), as names for bootstrap(), clientProperties()
// and clusterConfig().
inline bool isSaslSsl(const QString &name)
{
    return name.startsWith(QLatin1String("sasl-ssl"));
}

QString saslUser();     // kSaslUser unless env MIRRORDESK_SASL_USER is set
QString saslPassword(); // kSaslPassword unless env MIRRORDESK_SASL_PASSWORD is set

// The harness state directory (env MIRRORDESK_KAFKA_STATE or the build default).
QString stateDir();
// tests/kafka/harness.sh in the source tree.
QString harnessScript();

// host:port of broker `name`, or an empty string when it is not known.
QString bootstrap(const QString &name);
inline QString sourceBootstrap()
{
    return bootstrap(QStringLiteral("source"));
}
inline QString targetBootstrap()
{
    return bootstrap(QStringLiteral("target"));
}
inline QString saslBootstrap()
{
    return bootstrap(QStringLiteral("sasl"));
}
inline QString tlsBootstrap()
{
    return bootstrap(QStringLiteral("tls"));
}
inline QString saslSslBootstrap()
{
    return bootstrap(QStringLiteral("sasl-ssl"));
}

// librdkafka properties a client of broker `name` needs besides
// bootstrap.servers: empty for plaintext brokers, security.protocol +
// sasl.mechanism (kSaslMechanism) + sasl.username + sasl.password for "sasl",
// security.protocol + the ssl.* files and key password for "tls"; SASL_SSL,
// SCRAM-SHA-512, the user, password and ssl.ca.location for the "sasl-ssl" ones.
QMap<QString, QString> clientProperties(const QString &name);

// A ClusterConfig for broker `name` (alias = name, SASL filled in for "sasl"),
// for tests that drive the engine against the real brokers.
md::ClusterConfig clusterConfig(const QString &name);

// True when every broker in `names` has a bootstrap address; otherwise false
// and *missing says which ones and where they were looked for.
bool brokersAvailable(const QStringList &names = {QStringLiteral("source"), QStringLiteral("target"),
                                                  QStringLiteral("sasl")},
                      QString *missing = nullptr);

// True when env CI is "true" (or "1"): missing brokers then fail instead of skip.
bool isCi();

// Runs `harness.sh args...` against stateDir(); false with *error (its output)
// on a non-zero exit or after timeoutMs.
bool runHarness(const QStringList &args, QString *error = nullptr, int timeoutMs = 180000);

// kill -9 broker `name` (a crash: no clean shutdown) / start it again on the
// same ports with the same data, returning once it accepts clients again.
// Both fail (with *error) for brokers given by env override: the harness does
// not own those.
bool killBroker(const QString &name, QString *error = nullptr);
bool restartBroker(const QString &name, QString *error = nullptr);
// SIGSTOP / SIGCONT broker `name` (harness.sh pause/resume): a stall, not a crash.
bool pauseBroker(const QString &name, QString *error = nullptr);
bool resumeBroker(const QString &name, QString *error = nullptr);

// ---- Three-node clusters (harness.sh start-cluster3; CTest fixture `kafka3`,
// its own state dir and ports, label `cluster3`).
//
// "source3" and "target3": three KRaft nodes each (broker + controller in one
// JVM, node.id 0, 1, 2: a partition leader's id from metadata is the node
// index), replication factor 3, min.insync.replicas 2 (also for the offsets
// and transaction logs), StandardAuthorizer. bootstrap("source3") and
// clusterConfig("source3") give the PLAINTEXT listeners of the three nodes,
// whose principal User:ANONYMOUS is a super user: tests written for "source"
// and "target" work there unchanged. The SASL_PLAINTEXT listeners
// (SCRAM-SHA-512) know the users of kCluster3Users, created at format time:
// "admin" is a super user, the others may do nothing until a test grants them
// ACLs.
inline constexpr char kSource3[] = "source3";
inline constexpr char kTarget3[] = "target3";
inline constexpr int kCluster3Nodes = 3;
inline constexpr char kCluster3Admin[] = "admin";
inline const QStringList kCluster3Users{QStringLiteral("admin"), QStringLiteral("alice"), QStringLiteral("bob"),
                                        QStringLiteral("mirror")};
// The password of a cluster3 user: "<user>-test-secret".
QString cluster3Password(const QString &user);

// The SASL_PLAINTEXT bootstrap list of cluster `cluster` (empty when unknown).
QString cluster3SaslBootstrap(const QString &cluster);
// One node's own PLAINTEXT / SASL_PLAINTEXT listener ("127.0.0.1:port"); it
// stays known while the node is killed.
QString cluster3NodeBootstrap(const QString &cluster, int node);
QString cluster3NodeSaslBootstrap(const QString &cluster, int node);
// The node's JVM pid from the harness (-1: not running, e.g. killed).
qint64 cluster3NodePid(const QString &cluster, int node);

// librdkafka properties for `user` on the SASL listener (security.protocol,
// sasl.mechanism SCRAM-SHA-512, sasl.username, sasl.password).
QMap<QString, QString> cluster3SaslProperties(const QString &user);
// A ClusterConfig of `cluster` (alias = cluster): PLAINTEXT when `user` is
// empty, else the SASL listener as `user`.
md::ClusterConfig cluster3Config(const QString &cluster, const QString &user = {});

// True when the clusters in `names` are up (their bootstrap lists are
// written); otherwise false and *missing says how to start them.
bool clusters3Available(const QStringList &names = {QString::fromLatin1(kSource3), QString::fromLatin1(kTarget3)},
                        QString *missing = nullptr);

// kill -9 node `node` of `cluster` (harness.sh kill-node) / start it again on
// the same ports with the same data (harness.sh start-node), returning once it
// is back in the cluster and accepts clients.
bool killClusterNode(const QString &cluster, int node, QString *error = nullptr);
bool startClusterNode(const QString &cluster, int node, QString *error = nullptr);
// SIGTERM: the node's controlled shutdown moves its leaderships first (a rolling restart's step).
bool stopClusterNode(const QString &cluster, int node, QString *error = nullptr);

// A topic/group name unique to this process and call ("<prefix>-<pid>-<n>-<ms>"),
// so test runs and retries never see each other's data.
QString uniqueName(const QString &prefix);

} // namespace md::test

// Ends the test function when `available` is false: QFAIL under CI=true (CI
// must never pass by skipping), QSKIP otherwise (a developer running one test
// binary by hand). `why` is read after `available` is evaluated.
#define MD_REQUIRE_OR_SKIP(available, why)                                                                             \
    do {                                                                                                               \
        if (!(available)) {                                                                                            \
            if (::md::test::isCi())                                                                                    \
                QFAIL(qPrintable(why));                                                                                \
            else                                                                                                       \
                QSKIP(qPrintable(why));                                                                                \
        }                                                                                                              \
    } while (false)

// First statement of every test function (or initTestCase) that needs the brokers.
#define MD_REQUIRE_BROKERS_NAMED(...)                                                                                  \
    do {                                                                                                               \
        QString md_missing_;                                                                                           \
        MD_REQUIRE_OR_SKIP(::md::test::brokersAvailable({__VA_ARGS__}, &md_missing_), md_missing_);                    \
    } while (false)

#define MD_REQUIRE_BROKERS()                                                                                           \
    MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"), QStringLiteral("sasl"))

// First statement of a test (or initTestCase) on the three-node clusters.
#define MD_REQUIRE_CLUSTERS3()                                                                                         \
    do {                                                                                                               \
        QString md_missing_;                                                                                           \
        MD_REQUIRE_OR_SKIP(                                                                                            \
            ::md::test::clusters3Available(                                                                            \
                {QString::fromLatin1(::md::test::kSource3), QString::fromLatin1(::md::test::kTarget3)}, &md_missing_), \
            md_missing_);                                                                                              \
    } while (false)

// A test that runs a built program (`mirrordesk`): not built fails under CI=true.
#define MD_REQUIRE_FILE(path) MD_REQUIRE_OR_SKIP(QFileInfo::exists(path), QStringLiteral("not built: ") + (path))
