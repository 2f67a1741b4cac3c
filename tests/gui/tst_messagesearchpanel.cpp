// The message browser's search bar against the real "source" broker
// (MD_REQUIRE_BROKERS), records written by the test's own producer: a JSON
// path search streams exactly its matches into the table and reports them;
// "Latest N" searches from the end backwards and stops at the limit with the
// newest first; Cancel ends a search at once; a mistake in the filter is
// named in the status line before anything runs; the record viewer shows the
// selected record as pretty JSON beside its hex.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/admin/AdminClient.h"
#include "engine/admin/AdminService.h"
#include "ui/cluster/MessageSearchBar.h"
#include "ui/cluster/MessagesPanel.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

using namespace md;

namespace {

constexpr int recordCount = 400;
constexpr qint64 baseTs = 1700000000000LL;

QByteArray valueOf(int n)
{
    return QStringLiteral(R"({"n":%1,"kind":"%2","amount":%3})")
        .arg(n)
        .arg(n % 4 == 0 ? QStringLiteral("refund") : QStringLiteral("sale"))
        .arg(n * 10)
        .toUtf8();
}

} // namespace

class TstMessageSearchPanel final : public QObject {
    Q_OBJECT

    std::unique_ptr<AdminClient> m_admin;
    const QString m_topic = QStringLiteral("gui-search");
    ClusterMetadata m_metadata;

    // A panel on the source cluster with the test topic chosen.
    std::unique_ptr<MessagesPanel> panel()
    {
        auto p = std::make_unique<MessagesPanel>(m_admin.get());
        p->setClusters(test::clusterConfig(QStringLiteral("source")), {});
        p->setMetadata(m_metadata);
        p->resize(1000, 700);
        p->show();
        p->topicBox()->setCurrentText(m_topic);
        return p;
    }

    static SearchResult searchAndWait(MessagesPanel &p)
    {
        QSignalSpy finished(&p, &MessagesPanel::searchFinished);
        QTest::mouseClick(p.searchBar()->searchButton(), Qt::LeftButton);
        if (finished.isEmpty() && !finished.wait(30000))
            return {};
        return finished.first().first().value<SearchResult>();
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        QString error;
        const QString bootstrap = test::sourceBootstrap();
        test::deleteTopic(bootstrap, m_topic);
        QVERIFY2(test::createTopic(bootstrap, m_topic, 2, {}, &error), qPrintable(error));
        QList<test::TestRecord> records;
        for (int n = 0; n < recordCount; ++n) {
            test::TestRecord r;
            r.key = QByteArray::number(n);
            r.value = valueOf(n);
            r.partition = n % 2;
            r.timestamp = baseTs + n * 1000;
            records.append(r);
        }
        QVERIFY2(test::produce(bootstrap, m_topic, records, &error), qPrintable(error));
        auto broker = AdminService::create(test::clusterConfig(QStringLiteral("source")), &error);
        QVERIFY2(broker, qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(broker->metadata().value.topic(m_topic), 20000);
        m_metadata = broker->metadata().value;
        m_admin = std::make_unique<AdminClient>();
        QSignalSpy connected(m_admin.get(), &AdminClient::connected);
        m_admin->connectTo(test::clusterConfig(QStringLiteral("source")));
        QVERIFY(connected.wait(20000));
        // A fresh topic may not answer ListOffsets for a moment (KRaft): wait until a search runs.
        SearchSpec probe;
        probe.cluster = test::clusterConfig(QStringLiteral("source"));
        probe.topic = m_topic;
        probe.start = SearchSpec::Start::Beginning;
        QTRY_VERIFY_WITH_TIMEOUT(searchMessages(probe).ok(), 20000);
    }

    void aJsonPathSearchStreamsItsMatches()
    {
        auto p = panel();
        QAbstractItemModelTester tester(p->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        p->modeBox()->setCurrentIndex(p->modeBox()->findData(int(MessageQuery::Mode::FromOffset)));
        p->offsetEdit()->setText(QStringLiteral("0"));
        p->countBox()->setValue(1000);
        MessageSearchBar *bar = p->searchBar();
        bar->matchBox()->setCurrentIndex(bar->matchBox()->findData(int(FilterCondition::Match::JsonPath)));
        QVERIFY(!bar->caseBox()->isEnabled()); // no case for a JSON path
        bar->textEdit()->setText(QStringLiteral(R"($.kind == "refund" && $.amount >= 2000)"));
        const SearchResult r = searchAndWait(*p);
        QVERIFY2(r.ok(), qPrintable(r.error));
        // n % 4 == 0 and n * 10 >= 2000: n in 200..396, 50 records.
        QCOMPARE(p->model()->rowCount(), 50);
        for (const KafkaMessage &m : p->model()->messages()) {
            const int n = m.key->toInt();
            QVERIFY2(n % 4 == 0 && n >= 200, m.key->constData());
        }
        QCOMPARE(r.progress.scanned, recordCount);
        QVERIFY2(p->statusText().contains(QLatin1String("50 matches in 400 records")), qPrintable(p->statusText()));
        QCOMPARE(bar->progressText(), p->statusText());
        QVERIFY(bar->searchButton()->isVisible());
        QVERIFY(!bar->cancelButton()->isVisible());

        // The record viewer: pretty JSON beside hex.
        p->view()->selectRow(0);
        const KafkaMessage *m = p->currentMessage();
        QVERIFY(m);
        QVERIFY2(p->detailView()->toPlainText().contains(QLatin1String("\"kind\": \"refund\"")),
                 qPrintable(p->detailView()->toPlainText()));
        QVERIFY2(p->detailHexView()->toPlainText().contains(QLatin1String("7b 22 6e 22")), // {"n"
                 qPrintable(p->detailHexView()->toPlainText()));
    }

    void latestSearchesBackwardsToTheLimit()
    {
        auto p = panel();
        p->modeBox()->setCurrentIndex(p->modeBox()->findData(int(MessageQuery::Mode::LatestN)));
        p->countBox()->setValue(5);
        MessageSearchBar *bar = p->searchBar();
        bar->fieldBox()->setCurrentIndex(bar->fieldBox()->findData(int(FilterCondition::Field::Key)));
        bar->matchBox()->setCurrentIndex(bar->matchBox()->findData(int(FilterCondition::Match::Regex)));
        bar->textEdit()->setText(QStringLiteral("^1\\d$")); // keys 10..19
        const SearchResult r = searchAndWait(*p);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.limitReached);
        QCOMPARE(p->model()->rowCount(), 5);
        QList<int> keys;
        for (const KafkaMessage &m : p->model()->messages())
            keys.append(m.key->toInt());
        QCOMPARE(keys, (QList<int>{19, 18, 17, 16, 15}));
    }

    void containsIgnoresCaseUnlessAsked()
    {
        auto p = panel();
        p->modeBox()->setCurrentIndex(p->modeBox()->findData(int(MessageQuery::Mode::LatestN)));
        p->countBox()->setValue(1000);
        MessageSearchBar *bar = p->searchBar();
        bar->textEdit()->setText(QStringLiteral("REFUND"));
        SearchResult r = searchAndWait(*p);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(p->model()->rowCount(), recordCount / 4);
        bar->caseBox()->setChecked(true);
        r = searchAndWait(*p);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(p->model()->rowCount(), 0);
    }

    void aTimeRangeNarrowsTheSearch()
    {
        auto p = panel();
        p->modeBox()->setCurrentIndex(p->modeBox()->findData(int(MessageQuery::Mode::FromOffset)));
        p->countBox()->setValue(1000);
        MessageSearchBar *bar = p->searchBar();
        bar->fromBox()->setChecked(true);
        bar->fromEdit()->setDateTime(QDateTime::fromMSecsSinceEpoch(baseTs + 100 * 1000, Qt::UTC));
        bar->toBox()->setChecked(true);
        bar->toEdit()->setDateTime(QDateTime::fromMSecsSinceEpoch(baseTs + 109 * 1000, Qt::UTC));
        const SearchResult r = searchAndWait(*p);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(p->model()->rowCount(), 10);
    }

    void cancelEndsTheSearch()
    {
        auto p = panel();
        p->modeBox()->setCurrentIndex(p->modeBox()->findData(int(MessageQuery::Mode::FromOffset)));
        MessageSearchBar *bar = p->searchBar();
        bar->textEdit()->setText(QStringLiteral("no record holds this"));
        QSignalSpy finished(p.get(), &MessagesPanel::searchFinished);
        QTest::mouseClick(bar->searchButton(), Qt::LeftButton);
        QVERIFY(bar->isSearching());
        QVERIFY(bar->cancelButton()->isVisible());
        QVERIFY(!bar->searchButton()->isVisible());
        QTest::mouseClick(bar->cancelButton(), Qt::LeftButton);
        QVERIFY(finished.wait(5000));
        const auto r = finished.first().first().value<SearchResult>();
        QVERIFY2(r.cancelled, qPrintable(r.summary()));
        QVERIFY2(p->statusText().startsWith(QLatin1String("cancelled")), qPrintable(p->statusText()));
        QVERIFY(bar->searchButton()->isVisible());
    }

    void aReadReplacesARunningSearch()
    {
        auto p = panel();
        p->modeBox()->setCurrentIndex(p->modeBox()->findData(int(MessageQuery::Mode::FromOffset)));
        p->offsetEdit()->setText(QStringLiteral("0"));
        p->countBox()->setValue(3);
        MessageSearchBar *bar = p->searchBar();
        bar->textEdit()->clear(); // every record matches
        QSignalSpy finished(p.get(), &MessagesPanel::searchFinished);
        QSignalSpy shown(p.get(), &MessagesPanel::messagesShown);
        p->countBox()->setValue(1000);
        QTest::mouseClick(bar->searchButton(), Qt::LeftButton);
        QVERIFY(bar->isSearching());
        p->countBox()->setValue(3);
        p->read(); // the browser's read of three records replaces the search
        QVERIFY(!bar->isSearching());
        QVERIFY(bar->searchButton()->isVisible());
        QVERIFY(shown.wait(20000));
        QTest::qWait(1500); // a search left running would stream its 400 matches in meanwhile
        QCOMPARE(p->model()->rowCount(), 3);
        QCOMPARE(finished.size(), 0);
    }

    void mistakesAreNamedBeforeAnythingRuns()
    {
        auto p = panel();
        MessageSearchBar *bar = p->searchBar();
        QSignalSpy finished(p.get(), &MessagesPanel::searchFinished);
        bar->matchBox()->setCurrentIndex(bar->matchBox()->findData(int(FilterCondition::Match::JsonPath)));
        bar->textEdit()->setText(QStringLiteral("$.kind = \"refund\""));
        QTest::keyClick(bar->textEdit(), Qt::Key_Return);
        QCOMPARE(finished.size(), 1); // answered at once, nothing ran
        QVERIFY(!bar->isSearching());
        QVERIFY2(p->statusText().contains(QLatin1String("JSON path")) &&
                     p->statusText().contains(QLatin1String("column")),
                 qPrintable(p->statusText()));

        bar->fieldBox()->setCurrentIndex(bar->fieldBox()->findData(int(FilterCondition::Field::Header)));
        QVERIFY(bar->headerEdit()->isVisible());
        bar->matchBox()->setCurrentIndex(bar->matchBox()->findData(int(FilterCondition::Match::Contains)));
        QTest::mouseClick(bar->searchButton(), Qt::LeftButton);
        QCOMPARE(finished.size(), 2);
        QVERIFY2(p->statusText().contains(QLatin1String("header")), qPrintable(p->statusText()));

        p->topicBox()->setCurrentText(QString());
        QTest::mouseClick(bar->searchButton(), Qt::LeftButton);
        QCOMPARE(finished.size(), 3);
        QVERIFY2(p->statusText().contains(QLatin1String("topic")), qPrintable(p->statusText()));
    }
};

QTEST_MAIN(TstMessageSearchPanel)
#include "tst_messagesearchpanel.moc"
