// The Schemas tab against small fake registries (no brokers): answers that
// arrive late are dropped. A subject selected and then replaced by another
// before its (slow) answer came never overwrites the newer one's details; a
// registry replaced while its (slow) subject list was on its way never fills
// the list of the new one. Also: a subject the registry lost between the list
// and its details shows its error on its row, the others still fill in.

#include "../integration/registry_fake_support.h"

#include "engine/schema/RegistryDecoders.h"
#include "model/tables/SchemaSubjectModel.h"
#include "ui/cluster/SchemaDetails.h"
#include "ui/cluster/SchemasPanel.h"

#include <QAbstractItemModelTester>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>

using namespace md;
using test::FakeAnswer;
using test::FakeRegistry;

namespace {

constexpr int kWaitMs = 15000;
// Spies are polled (QTRY), never wait()ed on: a task done before its continuation is
// attached is answered at once, inside the call (Qt 6.4), before wait() would start.

std::shared_ptr<RegistryDecoders> registryAt(const FakeRegistry &fake)
{
    SchemaRegistryConfig config;
    config.url = fake.url();
    return std::make_shared<RegistryDecoders>(config);
}

// A subject with one Avro version whose record is named `record`; its latest
// version answers after `delayMs`.
void serveSubject(FakeRegistry *fake, const QByteArray &subject, const QByteArray &record, int delayMs = 0)
{
    const QByteArray base = "/apis/ccompat/v7/subjects/" + subject;
    fake->answer(base + "/versions", {200, "[1]"});
    // No raw strings here: moc misreads one holding \" and then finds no class.
    FakeAnswer latest{200, "{\"subject\":\"" + subject +
                               "\",\"version\":1,\"id\":7,\"schema\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"" +
                               record + "\\\",\\\"fields\\\":[]}\"}"};
    latest.delayMs = delayMs;
    fake->answer(base + "/versions/latest", latest);
    fake->answer("/apis/ccompat/v7/config/" + subject, {200, R"({"compatibilityLevel":"FULL"})"});
}

void serveList(FakeRegistry *fake, const QByteArray &subjects, int delayMs = 0)
{
    FakeAnswer list{200, subjects};
    list.delayMs = delayMs;
    fake->answer("/apis/ccompat/v7/subjects", list);
    fake->answer("/apis/ccompat/v7/config", {200, R"({"compatibilityLevel":"BACKWARD"})"});
}

} // namespace

class TestSchemasStale final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aLateDetailNeverReplacesANewerOne()
    {
        FakeRegistry fake;
        serveList(&fake, R"(["slow-value","quick-value"])");
        serveSubject(&fake, "slow-value", "Slow", 800);
        serveSubject(&fake, "quick-value", "Quick");
        SchemasPanel panel;
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        panel.resize(1000, 600);
        panel.show();
        QSignalSpy listed(&panel, &SchemasPanel::subjectsListed);
        panel.setRegistry(registryAt(fake));
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), kWaitMs);

        QSignalSpy shown(&panel, &SchemasPanel::subjectShown);
        QSignalSpy failed(&panel, &SchemasPanel::subjectFailed);
        panel.openSubject(QStringLiteral("slow-value"));
        panel.openSubject(QStringLiteral("quick-value"));
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), kWaitMs);
        QCOMPARE(shown.first().first().toString(), QStringLiteral("quick-value"));
        // The slow answer comes, and is dropped.
        QTest::qWait(1200);
        QCOMPARE(shown.size(), 1);
        QCOMPARE(failed.size(), 0); // nor is the slow one's cut-short answer shown as a failure
        QCOMPARE(panel.details()->subject(), QStringLiteral("quick-value"));
        QCOMPARE(panel.details()->statusText(), QString());
        QVERIFY(panel.details()->textView()->toPlainText().contains(QLatin1String("\"Quick\"")));
        QTRY_VERIFY_WITH_TIMEOUT(panel.pendingDetails() == 0, kWaitMs);
        QCOMPARE(panel.model()
                     ->index(panel.model()->rowOf(QStringLiteral("slow-value")), SchemaSubjectModel::Compatibility)
                     .data()
                     .toString(),
                 QStringLiteral("FULL"));
    }

    void aReplacedRegistrysListIsDropped()
    {
        FakeRegistry old, current;
        serveList(&old, R"(["old-value"])", 800);
        serveSubject(&old, "old-value", "Old");
        serveList(&current, R"(["new-value"])");
        serveSubject(&current, "new-value", "New");
        SchemasPanel panel;
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        panel.resize(1000, 600);
        panel.show();
        QSignalSpy listed(&panel, &SchemasPanel::subjectsListed);
        panel.setRegistry(registryAt(old));
        QVERIFY(panel.isListing());
        panel.setRegistry(registryAt(current));
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), kWaitMs);
        QTest::qWait(1200);
        QCOMPARE(listed.size(), 1);
        QCOMPARE(panel.model()->subjects(), QStringList{QStringLiteral("new-value")});
        QVERIFY2(panel.statusText().contains(current.url()), qPrintable(panel.statusText()));
    }

    void aLostSubjectShowsItsErrorOnItsRow()
    {
        FakeRegistry fake;
        serveList(&fake, R"(["here-value","lost-value"])");
        serveSubject(&fake, "here-value", "Here");
        // lost-value: every path of it answers the fake's 404.
        SchemasPanel panel;
        panel.resize(1000, 600);
        panel.show();
        QSignalSpy loaded(&panel, &SchemasPanel::detailsLoaded);
        panel.setRegistry(registryAt(fake));
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), kWaitMs);
        const SchemaSubjectModel *m = panel.model();
        const int lost = m->rowOf(QStringLiteral("lost-value"));
        QVERIFY(m->rowAt(lost)->loaded);
        QVERIFY2(
            m->index(lost, SchemaSubjectModel::Subject).data(Qt::ToolTipRole).toString().contains(QLatin1String("404")),
            qPrintable(m->index(lost, SchemaSubjectModel::Subject).data(Qt::ToolTipRole).toString()));
        QCOMPARE(m->index(m->rowOf(QStringLiteral("here-value")), SchemaSubjectModel::Type).data().toString(),
                 QStringLiteral("AVRO"));
        QVERIFY2(!panel.statusText().contains(QLatin1String("Could not")), qPrintable(panel.statusText()));
    }
};

QTEST_MAIN(TestSchemasStale)
#include "tst_schemasstale.moc"
