// The registries compared where a user sees a job's plan and its clusters side
// by side, offscreen against the real brokers and the real registry: a topic
// whose subject the renamed target topic lacks shows in the Compare view's
// Schemas section and in the job editor plan's Schemas tab; with no registry
// the section stays hidden.
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "RegistryTestEnv.h"
#include "engine/schema/SchemaRegistryClient.h"
#include "model/profile/JobProfile.h"
#include "ui/job/CompareView.h"
#include "ui/job/PlanView.h"

#include <QListWidget>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

using namespace md;

namespace {

QStringList items(const QListWidget *list)
{
    QStringList out;
    for (int i = 0; i < list->count(); ++i)
        out << list->item(i)->text();
    return out;
}

} // namespace

class TstSchemaCompareViews final : public QObject {
    Q_OBJECT

    QString m_url;
    QString m_base;
    QString m_topic;

    MirrorJobSpec spec(bool registries) const
    {
        MirrorJobSpec s;
        s.name = QStringLiteral("schemas");
        s.source = test::clusterConfig(QStringLiteral("source"));
        s.source.alias = QStringLiteral("eu");
        s.target = test::clusterConfig(QStringLiteral("target"));
        if (registries) {
            s.source.schemaRegistry.url = m_url;
            s.target.schemaRegistry.url = m_url;
        }
        s.naming = NamingPolicy::Prefix;
        s.include = {QRegularExpression::escape(m_base) + QStringLiteral("\\..*")};
        return s;
    }

    QString missingLine() const
    {
        return QStringLiteral("%1-value: missing on the target registry (as eu.%1-value, the subject of target topic "
                              "eu.%1) (1 version on the source)")
            .arg(m_topic);
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        MD_REQUIRE_REGISTRY();
        m_url = test::registryUrl();
        m_base = test::uniqueName(QStringLiteral("schemaviews"));
        m_topic = m_base + QStringLiteral(".orders");
        QString error;
        QVERIFY2(test::createTopic(test::sourceBootstrap(), m_topic, 1, {}, &error), qPrintable(error));
        SchemaRegistryClient client(SchemaRegistryConfig{.url = m_url});
        RegistryError registryError;
        QVERIFY2(client.registerSchema(m_topic + QStringLiteral("-value"), QStringLiteral("AVRO"), "\"string\"", {},
                                       &registryError),
                 qPrintable(registryError.message));
    }

    void compareViewShowsTheSchemasSection()
    {
        CompareView view(spec(true));
        view.resize(1000, 600);
        view.show();
        QSignalSpy refreshed(&view, &CompareView::refreshed);
        QVERIFY(refreshed.wait(30000));
        QCOMPARE(view.registryComparison().state, RegistryComparison::State::Compared);
        QVERIFY(view.schemasList()->isVisible());
        QCOMPARE(items(view.schemasList()), QStringList{missingLine()});

        CompareView plain(spec(false));
        plain.show();
        QSignalSpy plainRefreshed(&plain, &CompareView::refreshed);
        QVERIFY(plainRefreshed.wait(30000));
        QVERIFY(!plain.schemasList()->isVisible());
    }

    void planViewHasASchemasTab()
    {
        const QByteArray json = QStringLiteral(R"({"mirrordesk": 1, "name": "plan",
            "source": {"alias": "eu", "bootstrap": "%1", "schemaRegistry": {"url": "%3"}},
            "target": {"alias": "dr", "bootstrap": "%2", "schemaRegistry": {"url": "%3"}},
            "topics": {"include": ["%4\\..*"]}, "naming": {"policy": "prefix"}})")
                                    .arg(test::sourceBootstrap(), test::targetBootstrap(), m_url, m_base)
                                    .toUtf8();
        QList<ProfileIssue> issues;
        const JobProfile profile = JobProfile::fromJson(json, QStringLiteral("plan.mirrorjob"), &issues);
        PlanView view;
        view.setDebounceMs(0);
        view.resize(1000, 600);
        view.show();
        QSignalSpy updated(&view, &PlanView::schemasUpdated);
        view.setProfile(profile, {});
        view.refreshNow();
        QVERIFY(updated.wait(30000));
        const QStringList shown = items(view.schemasList());
        QCOMPARE(shown.size(), 2);
        QCOMPARE(shown.at(0), QStringLiteral("schemas: 1 subject, 1 id compared: 1 subject missing on the target"));
        QCOMPARE(shown.at(1), missingLine());
        auto *tabs = view.findChild<QTabWidget *>(QStringLiteral("planViews"));
        QVERIFY(tabs);
        QCOMPARE(tabs->tabText(tabs->indexOf(view.schemasList())), QStringLiteral("Schemas (1)"));
    }
};

QTEST_MAIN(TstSchemaCompareViews)
#include "tst_schemacompareviews.moc"
