// readerConf: the one configuration of the engine's read-only consumers (browser, range copy,
// verify, retention probe, offset map reader). What each of them relies on is pinned here.
#include "engine/core/KafkaHandles.h"
#include "engine/core/ReaderConsumer.h"

#include <QTest>

using namespace md;

namespace {

QString get(const ConfResult &conf, const char *key)
{
    char value[512];
    size_t size = sizeof value;
    if (rd_kafka_conf_get(conf.conf.get(), key, value, &size) != RD_KAFKA_CONF_OK)
        return QStringLiteral("<unset>");
    return QString::fromUtf8(value);
}

ClusterConfig cluster()
{
    ClusterConfig c;
    c.bootstrap = QStringLiteral("127.0.0.1:9092");
    return c;
}

} // namespace

class TstReaderConsumer final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsWithoutCommittingAndSeesPartitionEnds()
    {
        const ConfResult conf = readerConf(cluster(), {});
        QVERIFY2(conf.conf, qPrintable(conf.error));
        QCOMPARE(get(conf, "enable.auto.commit"), QStringLiteral("false"));
        QCOMPARE(get(conf, "enable.auto.offset.store"), QStringLiteral("false"));
        QCOMPARE(get(conf, "enable.partition.eof"), QStringLiteral("true"));
        QCOMPARE(get(conf, "isolation.level"), QStringLiteral("read_committed"));
        QCOMPARE(get(conf, "auto.offset.reset"), QStringLiteral("smallest")); // librdkafka's name for earliest
        QCOMPARE(get(conf, "bootstrap.servers"), QStringLiteral("127.0.0.1:9092"));
    }

    void aGroupOfItsOwnUnlessNamed()
    {
        // Two verify runs at once must not share a group id (the broker would mix their
        // assignments' sessions), a named reader keeps its name.
        const QString a = get(readerConf(cluster(), {.purpose = QStringLiteral("verify")}), "group.id");
        const QString b = get(readerConf(cluster(), {.purpose = QStringLiteral("verify")}), "group.id");
        QVERIFY2(a.startsWith(QLatin1String("mirrordesk-verify-")), qPrintable(a));
        QVERIFY(a != b);
        QCOMPARE(get(readerConf(cluster(), {.groupId = QStringLiteral("mirrordesk-browser")}), "group.id"),
                 QStringLiteral("mirrordesk-browser"));
    }

    void theOptionsAndExtrasWin()
    {
        ReaderOptions options{.readCommitted = false, .offsetReset = QStringLiteral("error")};
        options.extra = {{QStringLiteral("fetch.wait.max.ms"), QStringLiteral("100")},
                         {QStringLiteral("enable.partition.eof"), QStringLiteral("false")}};
        const ConfResult conf = readerConf(cluster(), options);
        QVERIFY2(conf.conf, qPrintable(conf.error));
        QCOMPARE(get(conf, "isolation.level"), QStringLiteral("read_uncommitted"));
        QCOMPARE(get(conf, "auto.offset.reset"), QStringLiteral("error"));
        QCOMPARE(get(conf, "fetch.wait.max.ms"), QStringLiteral("100"));
        QCOMPARE(get(conf, "enable.partition.eof"), QStringLiteral("false"));
    }

    void anInvalidExtraIsNamed()
    {
        ReaderOptions options;
        options.extra = {{QStringLiteral("fetch.wait.max.ms"), QStringLiteral("not a number")}};
        const ConfResult conf = readerConf(cluster(), options);
        QVERIFY(!conf.conf);
        QVERIFY2(conf.error.contains(QLatin1String("fetch.wait.max.ms")), qPrintable(conf.error));
    }
};

QTEST_GUILESS_MAIN(TstReaderConsumer)
#include "tst_readerconsumer.moc"
