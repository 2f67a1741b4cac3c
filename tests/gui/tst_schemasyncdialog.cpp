// "Sync Schemas Now" from the Compare tab, offscreen, between the harness's two
// real Apicurio registries: the dialog lists what one round would register
// (nothing is registered by opening it), Register registers exactly that and
// says so, and a second look finds it all on the target. The Compare tab
// offers the button only when both clusters have a registry.

#include "KafkaTestEnv.h"
#include "RegistryTestEnv.h"

#include "engine/schema/SchemaRegistryClient.h"
#include "ui/dialogs/SchemaSyncDialog.h"
#include "ui/job/CompareView.h"
#include "ui/job/PlanView.h"

#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace md;
using namespace md::test;

class TstSchemaSyncDialog final : public QObject {
    Q_OBJECT

    MirrorJobSpec spec(const QString &topic) const
    {
        MirrorJobSpec s;
        s.name = QStringLiteral("schemas now");
        s.source = clusterConfig(QStringLiteral("source"));
        s.target = clusterConfig(QStringLiteral("target"));
        s.source.schemaRegistry.url = registryUrl();
        s.target.schemaRegistry.url = secondRegistryUrl();
        s.include = {topic};
        s.naming = NamingPolicy::Prefix;
        return s;
    }

    static QStringList texts(const QListWidget *list)
    {
        QStringList out;
        for (int i = 0; i < list->count(); ++i)
            out << list->item(i)->text();
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        MD_REQUIRE_REGISTRY();
        MD_REQUIRE_SECOND_REGISTRY();
    }

    void previewThenRegister()
    {
        const QString topic = uniqueName(QStringLiteral("ssd"));
        SchemaRegistryClient source(SchemaRegistryConfig{.url = registryUrl()});
        SchemaRegistryClient target(SchemaRegistryConfig{.url = secondRegistryUrl()});
        RegistryError e;
        const std::optional<int> id =
            source.registerSchema(topic + QStringLiteral("-value"), QStringLiteral("AVRO"),
                                  QStringLiteral(R"({"type":"string","doc":"%1"})").arg(topic).toUtf8(), {}, &e);
        QVERIFY2(id, qPrintable(e.message));
        const MirrorJobSpec s = spec(topic);
        const QString targetSubject = s.source.alias + QStringLiteral(".") + topic + QStringLiteral("-value");

        auto *dialog = new SchemaSyncDialog(s);
        QSignalSpy shown(dialog, &SchemaSyncDialog::previewShown);
        QSignalSpy registered(dialog, &SchemaSyncDialog::registered);
        dialog->show();
        QVERIFY(shown.wait(30000));
        const QString expected =
            QStringLiteral("register %1 from %2-value version 1 (source id %3)").arg(targetSubject, topic).arg(*id);
        QVERIFY2(texts(dialog->lines()).contains(expected), qPrintable(texts(dialog->lines()).join(QLatin1Char('\n'))));
        QVERIFY(dialog->registerButton()->isEnabled());
        QCOMPARE(dialog->registerButton()->text(), QStringLiteral("&Register 1 Version(s)"));
        // Opening it registered nothing.
        QVERIFY(!target.versions(targetSubject, &e));
        QCOMPARE(e.kind, RegistryError::Kind::NotFound);

        QTest::mouseClick(dialog->registerButton(), Qt::LeftButton);
        QVERIFY(dialog->isBusy());
        QVERIFY(shown.wait(30000));
        QCOMPARE(registered.size(), 1);
        QVERIFY2(dialog->preview().summary().contains(QStringLiteral("1 version(s) registered now")),
                 qPrintable(dialog->preview().summary()));
        QVERIFY(!dialog->registerButton()->isEnabled());
        const auto versions = target.versions(targetSubject, &e);
        QVERIFY2(versions && versions->size() == 1, qPrintable(e.message));
        delete dialog;

        // A second look: everything is there, nothing to register.
        SchemaSyncDialog again(s);
        QSignalSpy shownAgain(&again, &SchemaSyncDialog::previewShown);
        QVERIFY(shownAgain.wait(30000));
        QCOMPARE(again.preview().toRegister(), 0);
        QVERIFY(!again.registerButton()->isEnabled());
        QVERIFY2(texts(again.lines()).filter(targetSubject + QStringLiteral(" version 1: id ")).size() == 1,
                 qPrintable(texts(again.lines()).join(QLatin1Char('\n'))));
    }

    // The job editor's plan: a "Schema sync" tab with what the next round would register.
    void planListsWhatWouldBeRegistered()
    {
        const QString topic = uniqueName(QStringLiteral("ssp"));
        SchemaRegistryClient source(SchemaRegistryConfig{.url = registryUrl()});
        RegistryError e;
        QVERIFY(source.registerSchema(topic + QStringLiteral("-value"), QStringLiteral("AVRO"),
                                      QStringLiteral(R"({"type":"string","doc":"%1"})").arg(topic).toUtf8(), {}, &e));
        const QByteArray json =
            QStringLiteral(R"({"mirrordesk": 1, "name": "plan schemas",
            "source": {"alias": "eu", "bootstrap": "%1", "schemaRegistry": {"url": "%2"}},
            "target": {"alias": "dr", "bootstrap": "%3", "schemaRegistry": {"url": "%4"}},
            "topics": {"include": ["%5"]}, "naming": "prefix", "schemas": {"sync": true}})")
                .arg(sourceBootstrap(), registryUrl(), targetBootstrap(), secondRegistryUrl(), topic)
                .toUtf8();
        QList<ProfileIssue> issues;
        const JobProfile profile = JobProfile::fromJson(json, QStringLiteral("plan.mirrorjob"), &issues);
        QVERIFY(issues.isEmpty());
        PlanView plan;
        plan.setDebounceMs(0);
        QSignalSpy updated(&plan, &PlanView::schemaSyncUpdated);
        plan.setProfile(profile, {});
        QTRY_VERIFY_WITH_TIMEOUT(plan.schemaSync().state == SchemaSyncPreview::State::Ready, 30000);
        QCOMPARE(plan.schemaSync().toRegister(), 1);
        const QStringList lines = texts(plan.schemaSyncList());
        QVERIFY2(lines.contains(QStringLiteral("register eu.%1-value from %1-value version 1 (source id %2)")
                                    .arg(topic)
                                    .arg(plan.schemaSync().steps.value(0).sourceId)),
                 qPrintable(lines.join(QLatin1Char('\n'))));
    }

    void compareOffersItWithBothRegistries()
    {
        MirrorJobSpec s = spec(uniqueName(QStringLiteral("ssd-none")));
        CompareView with(s);
        QVERIFY(!with.syncSchemasButton()->isHidden());
        s.target.schemaRegistry = {};
        CompareView without(s);
        QVERIFY(without.syncSchemasButton()->isHidden());
    }
};

QTEST_MAIN(TstSchemaSyncDialog)
#include "tst_schemasyncdialog.moc"
