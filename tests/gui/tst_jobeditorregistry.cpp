// The job editor's schema registry fields, offscreen: each cluster's URL,
// authentication, user, password or token and CA go to the profile's
// `*.schemaRegistry` keys and come back from the file into the same fields;
// only the chosen authentication's keys are written, the object goes when its
// fields are empty, the secrets are references (never the typed value), and a
// bad URL gets check's message beside the field.

#include "JobEditorTestUtil.h"
#include "ui/connections/SecretField.h"
#include "ui/connections/SecretStore.h"
#include "ui/job/JobDocument.h"
#include "ui/job/JobEditor.h"
#include "ui/job/JobWorkspace.h"

#include <QComboBox>
#include <QLineEdit>
#include <QTest>

using namespace md;
using namespace md::test;

namespace {

void setAuth(JobEditor *e, const QString &side, const QString &auth)
{
    auto *combo = field<QComboBox>(e, side + QStringLiteral(".schemaRegistry.auth"));
    combo->setCurrentIndex(combo->findData(auth));
}

} // namespace

class TestJobEditorRegistry final : public QObject, private JobEditorFixture {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initEditorTest(QStringLiteral("tst_jobeditorregistry")); }

    void registryFieldsRoundTrip()
    {
        auto store = makeStore();
        const QString path = m_dir.filePath(QStringLiteral("registry.mirrorjob"));
        QString tokenRef;
        {
            JobWorkspace ws(store.get());
            JobEditor *e = ws.openFile(copyExample(QStringLiteral("orders.mirrorjob")));
            QVERIFY(e);
            QTRY_COMPARE(store->availability(), SecretStore::Availability::Available);
            // The example has no registry: empty fields, no authentication.
            QVERIFY(field<QLineEdit>(e, QStringLiteral("source.schemaRegistry.url"))->text().isEmpty());
            QCOMPARE(field<QComboBox>(e, QStringLiteral("source.schemaRegistry.auth"))->currentData().toString(),
                     QStringLiteral("none"));

            field<QLineEdit>(e, QStringLiteral("source.schemaRegistry.url"))
                ->setText(QStringLiteral("https://apicurio.example/apis/ccompat/v7"));
            setAuth(e, QStringLiteral("source"), QStringLiteral("basic"));
            field<QLineEdit>(e, QStringLiteral("source.schemaRegistry.username"))->setText(QStringLiteral("reader"));
            auto *password = field<SecretField>(e, QStringLiteral("source.schemaRegistry.password"));
            QVERIFY(password->isEnabled());
            password->setMode(SecretField::Mode::Environment);
            password->lineEdit()->setText(QStringLiteral("EU_REGISTRY_PASSWORD"));
            field<QLineEdit>(e, QStringLiteral("source.schemaRegistry.ca"))
                ->setText(QStringLiteral("/etc/ssl/registry-ca.pem"));

            field<QLineEdit>(e, QStringLiteral("target.schemaRegistry.url"))
                ->setText(QStringLiteral("http://registry-dr:8081"));
            setAuth(e, QStringLiteral("target"), QStringLiteral("bearer"));
            QVERIFY(!field<QLineEdit>(e, QStringLiteral("target.schemaRegistry.username"))->isEnabled());
            auto *token = field<SecretField>(e, QStringLiteral("target.schemaRegistry.token"));
            QCOMPARE(token->mode(), SecretField::Mode::Keychain);
            token->lineEdit()->setText(kPassword);
            e->validateNow();
            QVERIFY2(!hasErrors(e->issues()), qPrintable(issueLines(e->issues()).join(QLatin1Char('\n'))));
            QVERIFY(ws.saveAs(e, path));
            tokenRef = e->document()->profile().target.registryToken;
        }

        const QByteArray saved = readAll(path);
        QVERIFY(saved.contains("\"schemaRegistry\""));
        QVERIFY(saved.contains("${env:EU_REGISTRY_PASSWORD}"));
        QVERIFY(!saved.contains(kPassword.toUtf8()));
        const std::optional<SecretRef> keychain = SecretRef::whole(tokenRef);
        QVERIFY2(keychain && keychain->kind == QLatin1String("keychain"), qPrintable(tokenRef));
        QVERIFY(saved.contains(tokenRef.toUtf8()));
        QCOMPARE(m_backend->entries().value(keychain->arg), kPassword);

        QList<ProfileIssue> issues;
        const std::optional<JobProfile> onDisk = JobProfile::load(path, &issues);
        QVERIFY(onDisk);
        const ProfileSide &s = onDisk->source;
        QVERIFY(s.hasSchemaRegistry);
        QCOMPARE(s.registryUrl, QStringLiteral("https://apicurio.example/apis/ccompat/v7"));
        QCOMPARE(s.registryUsername, QStringLiteral("reader"));
        QCOMPARE(s.registryPassword, QStringLiteral("${env:EU_REGISTRY_PASSWORD}"));
        QVERIFY(s.registryToken.isEmpty());
        QCOMPARE(s.registryCa, QStringLiteral("/etc/ssl/registry-ca.pem"));
        const ProfileSide &t = onDisk->target;
        QVERIFY(t.hasSchemaRegistry);
        QCOMPARE(t.registryUrl, QStringLiteral("http://registry-dr:8081"));
        QVERIFY(t.registryUsername.isEmpty());
        QVERIFY(t.registryPassword.isEmpty());
        QCOMPARE(t.registryToken, tokenRef);

        // Opened again, the form shows it all and is not modified by showing it.
        JobWorkspace ws(store.get());
        JobEditor *e = ws.openFile(path);
        QVERIFY(e);
        QCOMPARE(field<QLineEdit>(e, QStringLiteral("source.schemaRegistry.url"))->text(), s.registryUrl);
        QCOMPARE(field<QComboBox>(e, QStringLiteral("source.schemaRegistry.auth"))->currentData().toString(),
                 QStringLiteral("basic"));
        QCOMPARE(field<QLineEdit>(e, QStringLiteral("source.schemaRegistry.username"))->text(),
                 QStringLiteral("reader"));
        auto *password = field<SecretField>(e, QStringLiteral("source.schemaRegistry.password"));
        QCOMPARE(password->mode(), SecretField::Mode::Environment);
        QCOMPARE(password->lineEdit()->text(), QStringLiteral("EU_REGISTRY_PASSWORD"));
        QCOMPARE(field<QLineEdit>(e, QStringLiteral("source.schemaRegistry.ca"))->text(), s.registryCa);
        QCOMPARE(field<QComboBox>(e, QStringLiteral("target.schemaRegistry.auth"))->currentData().toString(),
                 QStringLiteral("bearer"));
        QCOMPARE(field<SecretField>(e, QStringLiteral("target.schemaRegistry.token"))->profileValue(), tokenRef);
        QVERIFY(!e->document()->isModified());
        QCOMPARE(e->document()->profile(), *onDisk);
        // An edit elsewhere collects the registry back unchanged.
        field<QLineEdit>(e, QStringLiteral("name"))->setText(QStringLiteral("renamed"));
        QCOMPARE(e->document()->profile().source, onDisk->source);
        QCOMPARE(e->document()->profile().target, onDisk->target);
    }

    // Only the chosen authentication's keys reach the profile; without any
    // field the object goes too.
    void authenticationChoosesTheKeys()
    {
        auto store = makeStore();
        JobWorkspace ws(store.get());
        JobEditor *e = ws.newDocument();
        QTRY_COMPARE(store->availability(), SecretStore::Availability::Available);
        field<QLineEdit>(e, QStringLiteral("source.schemaRegistry.url"))->setText(QStringLiteral("http://r:8081"));
        setAuth(e, QStringLiteral("source"), QStringLiteral("basic"));
        field<QLineEdit>(e, QStringLiteral("source.schemaRegistry.username"))->setText(QStringLiteral("reader"));
        field<SecretField>(e, QStringLiteral("source.schemaRegistry.password"))->lineEdit()->setText(kPassword);
        const ProfileSide &s = e->document()->profile().source;
        QCOMPARE(s.registryUsername, QStringLiteral("reader"));
        QVERIFY(SecretRef::whole(s.registryPassword));
        QCOMPARE(e->document()->pendingSecrets().size(), 1);

        setAuth(e, QStringLiteral("source"), QStringLiteral("bearer"));
        field<SecretField>(e, QStringLiteral("source.schemaRegistry.token"))
            ->lineEdit()
            ->setText(kPassword + QLatin1Char('t'));
        QVERIFY(e->document()->profile().source.registryUsername.isEmpty());
        QVERIFY(e->document()->profile().source.registryPassword.isEmpty());
        QVERIFY(SecretRef::whole(e->document()->profile().source.registryToken));
        // The password typed for basic is not stored for a bearer registry.
        QCOMPARE(e->document()->pendingSecrets().size(), 1);

        setAuth(e, QStringLiteral("source"), QStringLiteral("none"));
        QVERIFY(e->document()->profile().source.registryToken.isEmpty());
        QVERIFY(e->document()->profile().source.hasSchemaRegistry);
        QVERIFY(e->document()->pendingSecrets().isEmpty());
        QVERIFY(e->document()->profile().toJson().contains("\"schemaRegistry\""));

        field<QLineEdit>(e, QStringLiteral("source.schemaRegistry.url"))->clear();
        QVERIFY(!e->document()->profile().source.hasSchemaRegistry);
        QVERIFY(!e->document()->profile().toJson().contains("schemaRegistry"));
    }

    void badUrlGetsChecksMessage()
    {
        auto store = makeStore();
        JobWorkspace ws(store.get());
        JobEditor *e = ws.newDocument();
        field<QLineEdit>(e, QStringLiteral("target.schemaRegistry.url"))->setText(QStringLiteral("registry:8081"));
        e->validateNow();
        QVERIFY2(e->fieldIssueText(QStringLiteral("target.schemaRegistry.url"))
                     .contains(QStringLiteral("not an http(s) URL")),
                 qPrintable(e->fieldIssueText(QStringLiteral("target.schemaRegistry.url"))));
        field<QLineEdit>(e, QStringLiteral("target.schemaRegistry.url"))->setText(QStringLiteral("https://r:8081"));
        e->validateNow();
        QVERIFY(e->fieldIssueText(QStringLiteral("target.schemaRegistry.url")).isEmpty());
    }
};

QTEST_MAIN(TestJobEditorRegistry)
#include "tst_jobeditorregistry.moc"
