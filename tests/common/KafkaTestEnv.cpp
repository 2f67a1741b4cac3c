#include "KafkaTestEnv.h"

#include <QAtomicInt>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>

namespace md::test {

namespace {

QString envOr(const char *name, const QString &fallback)
{
    const QString value = qEnvironmentVariable(name);
    return value.isEmpty() ? fallback : value;
}

QByteArray overrideVariable(const QString &name)
{
    return QByteArrayLiteral("MIRRORDESK_") + name.toUpper().toUtf8() + QByteArrayLiteral("_BOOTSTRAP");
}

QString bootstrapFile(const QString &name)
{
    // "tls" is the sasl broker's SSL listener (harness.sh ssl-bootstrap).
    if (name == QLatin1String("tls"))
        return QDir(stateDir()).filePath(QStringLiteral("sasl/ssl-bootstrap"));
    // "sasl-ssl", "sasl-ssl-wrong-host", "sasl-ssl-expired": files of the sasl broker.
    if (isSaslSsl(name))
        return QDir(stateDir()).filePath(QStringLiteral("sasl/") + name + QStringLiteral("-bootstrap"));
    return QDir(stateDir()).filePath(name + QStringLiteral("/bootstrap"));
}

bool isOverridden(const QString &name)
{
    return !qEnvironmentVariable(overrideVariable(name).constData()).trimmed().isEmpty();
}

} // namespace

QString saslUser()
{
    return envOr("MIRRORDESK_SASL_USER", QString::fromLatin1(kSaslUser));
}

QString saslPassword()
{
    return envOr("MIRRORDESK_SASL_PASSWORD", QString::fromLatin1(kSaslPassword));
}

QString stateDir()
{
    return envOr("MIRRORDESK_KAFKA_STATE", QStringLiteral(MIRRORDESK_BINARY_DIR "/kafka-state"));
}

QString harnessScript()
{
    return QStringLiteral(MIRRORDESK_SOURCE_DIR "/tests/kafka/harness.sh");
}

QString bootstrap(const QString &name)
{
    const QString overridden = qEnvironmentVariable(overrideVariable(name).constData()).trimmed();
    if (!overridden.isEmpty())
        return overridden;
    QFile file(bootstrapFile(name));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).trimmed();
}

QString tlsFile(const QString &fileName)
{
    return QDir(stateDir()).filePath(QStringLiteral("sasl/tls/") + fileName);
}

QString tlsKeyPassword()
{
    return envOr("MIRRORDESK_TLS_KEY_PASSWORD", QString::fromLatin1(kTlsKeyPassword));
}

QMap<QString, QString> clientProperties(const QString &name)
{
    if (name == QLatin1String("tls")) {
        return {
            {QStringLiteral("security.protocol"), QStringLiteral("SSL")},
            {QStringLiteral("ssl.ca.location"), tlsFile(QStringLiteral("ca.pem"))},
            {QStringLiteral("ssl.certificate.location"), tlsFile(QStringLiteral("client.pem"))},
            {QStringLiteral("ssl.key.location"), tlsFile(QStringLiteral("client.key"))},
            {QStringLiteral("ssl.key.password"), tlsKeyPassword()},
        };
    }
    if (isSaslSsl(name)) {
        return {
            {QStringLiteral("security.protocol"), QStringLiteral("SASL_SSL")},
            {QStringLiteral("sasl.mechanism"), QString::fromLatin1(kSaslMechanism)},
            {QStringLiteral("sasl.username"), saslUser()},
            {QStringLiteral("sasl.password"), saslPassword()},
            {QStringLiteral("ssl.ca.location"), tlsFile(QStringLiteral("ca.pem"))},
        };
    }
    if (name != QLatin1String("sasl"))
        return {};
    return {
        {QStringLiteral("security.protocol"), QStringLiteral("SASL_PLAINTEXT")},
        {QStringLiteral("sasl.mechanism"), QString::fromLatin1(kSaslMechanism)},
        {QStringLiteral("sasl.username"), saslUser()},
        {QStringLiteral("sasl.password"), saslPassword()},
    };
}

md::ClusterConfig clusterConfig(const QString &name)
{
    md::ClusterConfig config;
    config.alias = name;
    config.bootstrap = bootstrap(name);
    if (name == QLatin1String("sasl")) {
        config.security = md::SecurityProtocol::SaslPlaintext;
        config.saslMechanism = QString::fromLatin1(kSaslMechanism);
        config.saslUsername = saslUser();
        config.saslPassword = saslPassword();
    } else if (isSaslSsl(name)) {
        config.security = md::SecurityProtocol::SaslSsl;
        config.saslMechanism = QString::fromLatin1(kSaslMechanism);
        config.saslUsername = saslUser();
        config.saslPassword = saslPassword();
        config.sslCaFile = tlsFile(QStringLiteral("ca.pem"));
    } else if (name == QLatin1String("tls")) {
        config.security = md::SecurityProtocol::Ssl;
        config.sslCaFile = tlsFile(QStringLiteral("ca.pem"));
        config.sslCertFile = tlsFile(QStringLiteral("client.pem"));
        config.sslKeyFile = tlsFile(QStringLiteral("client.key"));
        config.sslKeyPassword = tlsKeyPassword();
    }
    return config;
}

bool brokersAvailable(const QStringList &names, QString *missing)
{
    QStringList absent;
    for (const QString &name : names) {
        if (bootstrap(name).isEmpty())
            absent << name;
    }
    if (absent.isEmpty())
        return true;
    if (missing) {
        QStringList where;
        for (const QString &name : std::as_const(absent)) {
            where << QStringLiteral("%1 (env %2 unset, %3 missing)")
                         .arg(name, QString::fromLatin1(overrideVariable(name)), bootstrapFile(name));
        }
        *missing = QStringLiteral("Kafka brokers not running: %1. Start them with "
                                  "'MIRRORDESK_KAFKA_STATE=%2 bash tests/kafka/harness.sh start-all' "
                                  "or run the test through ctest (fixture 'kafka').")
                       .arg(where.join(QStringLiteral("; ")), stateDir());
    }
    return false;
}

bool isCi()
{
    const QString ci = qEnvironmentVariable("CI").trimmed().toLower();
    return ci == QLatin1String("true") || ci == QLatin1String("1");
}

bool runHarness(const QStringList &args, QString *error, int timeoutMs)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("MIRRORDESK_KAFKA_STATE"), stateDir());
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QStringLiteral("bash"), QStringList{harnessScript()} + args);
    const QString what = QStringLiteral("harness.sh %1").arg(args.join(QLatin1Char(' ')));
    if (!process.waitForStarted(10000)) {
        if (error)
            *error = QStringLiteral("%1: could not start bash: %2").arg(what, process.errorString());
        return false;
    }
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
        if (error)
            *error = QStringLiteral("%1: no result after %2 ms; output:\n%3")
                         .arg(what)
                         .arg(timeoutMs)
                         .arg(QString::fromUtf8(process.readAll()));
        return false;
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        if (error)
            *error = QStringLiteral("%1 failed (exit %2):\n%3")
                         .arg(what)
                         .arg(process.exitCode())
                         .arg(QString::fromUtf8(process.readAll()));
        return false;
    }
    return true;
}

bool killBroker(const QString &name, QString *error)
{
    if (isOverridden(name)) {
        if (error)
            *error = QStringLiteral("broker '%1' comes from env %2: the harness cannot kill it")
                         .arg(name, QString::fromLatin1(overrideVariable(name)));
        return false;
    }
    return runHarness({QStringLiteral("kill"), name}, error, 30000);
}

bool restartBroker(const QString &name, QString *error)
{
    if (isOverridden(name)) {
        if (error)
            *error = QStringLiteral("broker '%1' comes from env %2: the harness cannot restart it")
                         .arg(name, QString::fromLatin1(overrideVariable(name)));
        return false;
    }
    return runHarness({QStringLiteral("restart"), name}, error, 180000);
}

static bool signalBroker(const QString &command, const QString &name, QString *error)
{
    if (isOverridden(name)) {
        if (error)
            *error = QStringLiteral("broker '%1' comes from env %2: the harness cannot %3 it")
                         .arg(name, QString::fromLatin1(overrideVariable(name)), command);
        return false;
    }
    return runHarness({command, name}, error, 30000);
}

bool pauseBroker(const QString &name, QString *error)
{
    return signalBroker(QStringLiteral("pause"), name, error);
}

bool resumeBroker(const QString &name, QString *error)
{
    return signalBroker(QStringLiteral("resume"), name, error);
}

namespace {

QString nodeDir(const QString &cluster, int node)
{
    return QDir(stateDir()).filePath(QStringLiteral("%1-%2").arg(cluster).arg(node));
}

QString readTrimmed(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).trimmed();
}

QString nodeListener(const QString &cluster, int node, int column)
{
    // ports: "PLAINTEXT CONTROLLER SASL" (harness.sh start_cluster3)
    const QStringList ports =
        readTrimmed(QDir(nodeDir(cluster, node)).filePath(QStringLiteral("ports"))).split(QLatin1Char(' '));
    if (ports.size() != 3)
        return {};
    return QStringLiteral("127.0.0.1:") + ports.at(column);
}

} // namespace

QString cluster3Password(const QString &user)
{
    return user + QStringLiteral("-test-secret");
}

QString cluster3SaslBootstrap(const QString &cluster)
{
    return readTrimmed(QDir(stateDir()).filePath(cluster + QStringLiteral("/sasl-bootstrap")));
}

QString cluster3NodeBootstrap(const QString &cluster, int node)
{
    return nodeListener(cluster, node, 0);
}

QString cluster3NodeSaslBootstrap(const QString &cluster, int node)
{
    return nodeListener(cluster, node, 2);
}

qint64 cluster3NodePid(const QString &cluster, int node)
{
    bool ok = false;
    const qint64 pid = readTrimmed(QDir(nodeDir(cluster, node)).filePath(QStringLiteral("pid"))).toLongLong(&ok);
    if (!ok || pid <= 0 || !QFileInfo::exists(QStringLiteral("/proc/%1").arg(pid)))
        return -1;
    return pid;
}

QMap<QString, QString> cluster3SaslProperties(const QString &user)
{
    return {
        {QStringLiteral("security.protocol"), QStringLiteral("SASL_PLAINTEXT")},
        {QStringLiteral("sasl.mechanism"), QStringLiteral("SCRAM-SHA-512")},
        {QStringLiteral("sasl.username"), user},
        {QStringLiteral("sasl.password"), cluster3Password(user)},
    };
}

md::ClusterConfig cluster3Config(const QString &cluster, const QString &user)
{
    md::ClusterConfig config;
    config.alias = cluster;
    if (user.isEmpty()) {
        config.bootstrap = bootstrap(cluster);
        return config;
    }
    config.bootstrap = cluster3SaslBootstrap(cluster);
    config.security = md::SecurityProtocol::SaslPlaintext;
    config.saslMechanism = QStringLiteral("SCRAM-SHA-512");
    config.saslUsername = user;
    config.saslPassword = cluster3Password(user);
    return config;
}

bool clusters3Available(const QStringList &names, QString *missing)
{
    QStringList absent;
    for (const QString &name : names) {
        if (bootstrap(name).isEmpty() || cluster3SaslBootstrap(name).isEmpty())
            absent << name;
    }
    if (absent.isEmpty())
        return true;
    if (missing) {
        *missing = QStringLiteral("three-node Kafka clusters not running: %1 (no bootstrap lists in %2). Start them "
                                  "with 'MIRRORDESK_KAFKA_STATE=%2 MIRRORDESK_KAFKA_PORTS=32000-32767 bash "
                                  "tests/kafka/harness.sh start-cluster3 %3' or run the test through ctest (fixture "
                                  "'kafka3').")
                       .arg(absent.join(QStringLiteral(", ")), stateDir(), names.join(QLatin1Char(' ')));
    }
    return false;
}

bool killClusterNode(const QString &cluster, int node, QString *error)
{
    return runHarness({QStringLiteral("kill-node"), cluster, QString::number(node)}, error, 30000);
}

bool stopClusterNode(const QString &cluster, int node, QString *error)
{
    return runHarness({QStringLiteral("stop-node"), cluster, QString::number(node)}, error, 180000);
}

bool startClusterNode(const QString &cluster, int node, QString *error)
{
    return runHarness({QStringLiteral("start-node"), cluster, QString::number(node)}, error, 180000);
}

QString uniqueName(const QString &prefix)
{
    static QAtomicInt counter;
    return QStringLiteral("%1-%2-%3-%4")
        .arg(prefix)
        .arg(QCoreApplication::applicationPid())
        .arg(counter.fetchAndAddRelaxed(1))
        .arg(QDateTime::currentMSecsSinceEpoch());
}

} // namespace md::test
