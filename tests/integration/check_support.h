#pragma once

// Shared by the `mirrordesk check` tests (tst_check, tst_checkreadiness): the
// executable run on a profile, a port nobody listens on, and the topics both
// plan against, with profiles and specs that select them.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/mirror/MirrorJobSpec.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest/QtTest>

namespace md::test {

inline int closedPort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost, 0);
    return server.serverPort(); // closed again when `server` goes
}

inline const QString kExe = QStringLiteral(MIRRORDESK_BINARY_DIR "/app/mirrordesk");

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
    qint64 elapsedMs = 0;
};

inline Run runCheck(const QString &profilePath)
{
    Run r;
    QElapsedTimer timer;
    timer.start();
    QProcess p;
    p.start(kExe, {QStringLiteral("check"), profilePath});
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
    } else if (p.exitStatus() == QProcess::NormalExit) {
        r.exitCode = p.exitCode();
    }
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    r.elapsedMs = timer.elapsed();
    return r;
}

// This run's topics: on the source <base>.orders (3 partitions), .payments (2)
// and .audit.internal (excluded by the profiles below); on the target
// eu.<orders> with all 3 partitions and eu.<payments> with too few. A test
// class inherits it and calls createTopics() from initTestCase().
class CheckFixture {
protected:
    QTemporaryDir m_dir;
    QString m_base; // unique prefix of this run's topics
    QString m_orders;
    QString m_payments;
    QString m_internal;

    QString writeProfile(const QString &name, const QByteArray &json)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(json);
        return path;
    }

    QByteArray profileJson(const QString &naming, const QString &targetBootstrap, bool createTopics = true)
    {
        return QStringLiteral(R"({"mirrordesk": 1, "name": "check test",
            "source": {"alias": "eu", "bootstrap": "%1"},
            "target": {"alias": "dr", "bootstrap": "%2"},
            "topics": {"include": ["%3\\..*"], "exclude": [".*\\.internal"]},
            "naming": %4, "start": "earliest", "createTopics": %5})")
            .arg(test::sourceBootstrap(), targetBootstrap, m_base, naming,
                 createTopics ? QStringLiteral("true") : QStringLiteral("false"))
            .toUtf8();
    }

    MirrorJobSpec spec(NamingPolicy naming) const
    {
        MirrorJobSpec s;
        s.source = test::clusterConfig(QStringLiteral("source"));
        s.source.alias = QStringLiteral("eu");
        s.target = test::clusterConfig(QStringLiteral("target"));
        s.target.alias = QStringLiteral("dr");
        s.include = {QRegularExpression::escape(m_base) + QStringLiteral("\\..*")};
        s.exclude = {QStringLiteral(".*\\.internal")};
        s.naming = naming;
        s.nameTemplate = QStringLiteral("copy-${topic}");
        return s;
    }

    void createTopics()
    {
        QVERIFY(m_dir.isValid());
        // Topic names made of [a-z0-9-] only, so they sit in a regex unescaped.
        m_base = test::uniqueName(QStringLiteral("check"));
        m_orders = m_base + QStringLiteral(".orders");
        m_payments = m_base + QStringLiteral(".payments");
        m_internal = m_base + QStringLiteral(".audit.internal");
        QString error;
        QVERIFY2(test::createTopic(test::sourceBootstrap(), m_orders, 3, {}, &error), qPrintable(error));
        QVERIFY2(test::createTopic(test::sourceBootstrap(), m_payments, 2, {}, &error), qPrintable(error));
        QVERIFY2(test::createTopic(test::sourceBootstrap(), m_internal, 1, {}, &error), qPrintable(error));
        // On the target: eu.<orders> exists with all 3 partitions, eu.<payments> with too few.
        QVERIFY2(test::createTopic(test::targetBootstrap(), QStringLiteral("eu.") + m_orders, 3, {}, &error),
                 qPrintable(error));
        QVERIFY2(test::createTopic(test::targetBootstrap(), QStringLiteral("eu.") + m_payments, 1, {}, &error),
                 qPrintable(error));
    }
};

} // namespace md::test
