#include "ui/job/JobEditor.h"

#include "model/profile/ProfileSupport.h"
#include "ui/connections/SecretField.h"
#include "ui/connections/SecretStore.h"
#include "ui/job/EditorText.h"
#include "ui/job/JobDocument.h"
#include "ui/job/PlanView.h"
#include "ui/widgets/WheelGuard.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QJsonValue>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTimer>
#include <QUndoCommand>
#include <QUndoStack>

namespace md {

using namespace editor_text;

namespace {

constexpr int kValidateDebounceMs = 250;

} // namespace

// One step of the document's history: the whole profile before and after, so
// undo restores every field at once whatever the edit touched.
class ProfileEditCommand final : public QUndoCommand {
public:
    ProfileEditCommand(JobEditor *editor, const JobProfile &before, const JobProfile &after, const QObject *source)
        : m_editor(editor), m_before(before), m_after(after), m_source(source)
    {
        setText(QObject::tr("edit"));
    }
    int id() const override { return 1; }
    bool mergeWith(const QUndoCommand *other) override
    {
        // Consecutive changes of one field (each keystroke) are one step.
        const auto *o = static_cast<const ProfileEditCommand *>(other);
        if (!m_source || o->m_source != m_source)
            return false;
        m_after = o->m_after;
        return true;
    }
    void undo() override { m_editor->applyProfile(m_before); }
    void redo() override
    {
        // The first redo is the push: the form already shows the edit.
        if (m_pushed)
            m_editor->applyProfile(m_after);
        m_pushed = true;
    }

private:
    JobEditor *m_editor;
    JobProfile m_before;
    JobProfile m_after;
    const QObject *m_source;
    bool m_pushed = false;
};

JobEditor::JobEditor(JobDocument *document, SecretStore *secrets, QWidget *parent)
    : QWidget(parent), m_doc(document), m_secrets(secrets), m_validateTimer(new QTimer(this)),
      m_undo(new QUndoStack(this))
{
    m_validateTimer->setSingleShot(true);
    m_validateTimer->setInterval(kValidateDebounceMs);
    connect(m_validateTimer, &QTimer::timeout, this, &JobEditor::validateNow);
    buildForm();
    guardWheel(this);
    load(m_doc->profile());
    m_shown = m_doc->profile();
    validateNow();
    // Saved (or edited back to the saved text): this is the clean point. Inside
    // an undo or redo the stack's index has not moved yet, so those are settled
    // once it has (indexChanged).
    connect(m_doc, &JobDocument::modifiedChanged, this, [this](bool modified) {
        if (!modified && !m_applying)
            m_undo->setClean();
    });
    connect(m_undo, &QUndoStack::indexChanged, this, [this] {
        if (!m_doc->isModified() && !m_undo->isClean())
            m_undo->setClean();
    });

    if (m_secrets) {
        QPointer<JobEditor> self(this);
        m_secrets->checkAvailability([self](bool available, const QString &reason) {
            if (!self || available)
                return;
            self->m_keychainNote->setText(
                tr("No system keychain is available (%1). Passwords can be read from an environment variable "
                   "(${env:NAME}) or, with a warning, written into the file readable by you only.")
                    .arg(reason));
            self->m_keychainNote->show();
            for (SecretField *f : self->secretFields())
                f->setDefaultMode(SecretField::Mode::Environment);
        });
    }
}

JobEditor::~JobEditor() = default;

void JobEditor::setResolver(const ReferenceResolver &resolver)
{
    m_resolver = resolver;
    validateNow();
}

void JobEditor::load(const JobProfile &p)
{
    m_loading = true;
    m_name->setText(p.name);
    const std::pair<SideWidgets *, const ProfileSide *> sides[] = {{&m_source, &p.source}, {&m_target, &p.target}};
    for (const auto &[w, s] : sides) {
        w->alias->setText(s->alias);
        w->bootstrap->setText(s->bootstrap);
        w->security->setCurrentIndex(w->security->findText(securityProtocolName(s->security)));
        w->mechanism->setCurrentText(s->saslMechanism);
        w->username->setText(s->saslUsername);
        w->password->setProfileValue(s->saslPassword);
        w->sslCa->setText(s->sslCa);
        w->sslCert->setText(s->sslCert);
        w->sslKey->setText(s->sslKey);
        w->keyPassword->setProfileValue(s->sslKeyPassword);
        w->registryUrl->setText(s->registryUrl);
        // The form's kind of authentication, from what the file sets.
        const QString auth = !s->registryToken.isEmpty() ? QStringLiteral("bearer")
                             : !s->registryUsername.isEmpty() || !s->registryPassword.isEmpty()
                                 ? QStringLiteral("basic")
                                 : QStringLiteral("none");
        w->registryAuth->setCurrentIndex(w->registryAuth->findData(auth));
        w->registryUser->setText(s->registryUsername);
        w->registryPassword->setProfileValue(s->registryPassword);
        w->registryToken->setProfileValue(s->registryToken);
        w->registryCa->setText(s->registryCa);
        w->properties->setPlainText(mapText(s->properties));
        w->consumerProperties->setPlainText(mapText(s->consumerProperties));
        w->producerProperties->setPlainText(mapText(s->producerProperties));
        w->adminProperties->setPlainText(mapText(s->adminProperties));
    }
    m_include->setPlainText(p.include.join(QLatin1Char('\n')));
    m_exclude->setPlainText(p.exclude.join(QLatin1Char('\n')));
    m_excludeInternal->setChecked(p.excludeInternalTopics);
    m_naming->setCurrentText(namingPolicyName(p.naming));
    m_separator->setText(p.separator);
    m_template->setText(p.nameTemplate);
    m_originHeader->setText(p.originHeader);
    m_groupId->setText(p.groupId);
    m_start->setCurrentText(startPositionName(p.start));
    m_startTimestamp->setText(timestampText(p.startTimestamp));
    m_stop->setCurrentIndex(int(p.stop));
    m_stopTimestamp->setText(timestampText(p.stopTimestamp));
    m_stopRecords->setValue(double(p.stopAfterRecords));
    m_delivery->setCurrentIndex(int(p.delivery));
    m_offsetMap->setChecked(p.offsetMap);
    m_transactionInterval->setValue(p.transactionIntervalMs);
    m_transactionRecords->setValue(p.transactionMaxRecords);
    m_createTopics->setChecked(p.createTopics);
    m_syncConfigs->setChecked(p.syncTopicConfigs);
    m_configExclude->setPlainText(p.configExclude.join(QLatin1Char('\n')));
    m_syncAcls->setChecked(p.syncAcls);
    m_aclInterval->setValue(p.aclSyncIntervalMs);
    m_aclMode->setCurrentText(aclSyncModeName(p.aclSyncMode));
    m_syncSchemas->setChecked(p.syncSchemas);
    m_schemaIds->setCurrentText(schemaIdsName(p.schemaIds));
    m_schemaInclude->setPlainText(p.schemaSubjectsInclude.join(QLatin1Char('\n')));
    m_schemaExclude->setPlainText(p.schemaSubjectsExclude.join(QLatin1Char('\n')));
    m_schemaInterval->setValue(p.schemaSyncIntervalMs);
    m_throttle->setValue(double(p.throttleBytesPerSecond));
    m_sampling->setValue(p.samplingIntervalMs);
    m_refresh->setValue(p.topicRefreshIntervalMs);
    m_unknownKeys->setVisible(!p.unknownKeys.isEmpty());
    m_unknownKeys->setText(tr("Kept as they are (this version does not know them): %1")
                               .arg(p.unknownKeys.keys().join(QStringLiteral(", "))));
    m_loading = false;
    updateEnabled();
}

JobProfile JobEditor::collect() const
{
    // Starts from the document so what the form does not show (version, unknown keys) survives.
    JobProfile p = m_doc->profile();
    QHash<QString, QString> &local = m_localIssues;
    local.clear();
    p.name = m_name->text();
    const std::pair<const SideWidgets *, ProfileSide *> sides[] = {{&m_source, &p.source}, {&m_target, &p.target}};
    for (const auto &[w, s] : sides) {
        s->alias = w->alias->text().trimmed();
        s->bootstrap = w->bootstrap->text().trimmed();
        parseSecurityProtocol(w->security->currentText(), &s->security);
        s->saslMechanism = w->mechanism->currentText().trimmed();
        s->saslUsername = w->username->text();
        s->saslPassword = w->password->profileValue();
        const bool saslSecurity =
            s->security == SecurityProtocol::SaslPlaintext || s->security == SecurityProtocol::SaslSsl;
        s->hasSasl = s->hasSasl || saslSecurity || !s->saslMechanism.isEmpty() || !s->saslUsername.isEmpty() ||
                     !s->saslPassword.isEmpty();
        s->sslCa = w->sslCa->text().trimmed();
        s->sslCert = w->sslCert->text().trimmed();
        s->sslKey = w->sslKey->text().trimmed();
        s->sslKeyPassword = w->keyPassword->profileValue();
        // Only the chosen authentication's keys reach the file (the others stay in the form).
        const QString auth = w->registryAuth->currentData().toString();
        s->registryUrl = w->registryUrl->text().trimmed();
        s->registryUsername = auth == QLatin1String("basic") ? w->registryUser->text().trimmed() : QString();
        s->registryPassword = auth == QLatin1String("basic") ? w->registryPassword->profileValue() : QString();
        s->registryToken = auth == QLatin1String("bearer") ? w->registryToken->profileValue() : QString();
        s->registryCa = w->registryCa->text().trimmed();
        // The object is written when any of its keys is (as the parser sets it when the file has it).
        s->hasSchemaRegistry = !s->registryUrl.isEmpty() || !s->registryUsername.isEmpty() ||
                               !s->registryPassword.isEmpty() || !s->registryToken.isEmpty() ||
                               !s->registryCa.isEmpty();
        const std::pair<const QPlainTextEdit *, QMap<QString, QString> *> maps[] = {
            {w->properties, &s->properties},
            {w->consumerProperties, &s->consumerProperties},
            {w->producerProperties, &s->producerProperties},
            {w->adminProperties, &s->adminProperties}};
        for (const auto &[edit, map] : maps) {
            QString problem;
            *map = parseMap(edit, &problem);
            if (!problem.isEmpty())
                local.insert(edit->objectName(), problem);
        }
    }
    p.include = lines(m_include);
    p.exclude = lines(m_exclude);
    p.excludeInternalTopics = m_excludeInternal->isChecked();
    parseNamingPolicy(m_naming->currentText(), &p.naming);
    p.separator = m_separator->text();
    p.nameTemplate = m_template->text().trimmed();
    p.originHeader = m_originHeader->text().trimmed();
    p.groupId = m_groupId->text();
    p.start = StartPosition(m_start->currentIndex());
    p.stop = StopCondition(m_stop->currentIndex());
    auto timestamp = [&](QLineEdit *edit, bool used, QDateTime *out) {
        *out = {};
        if (!used || edit->text().trimmed().isEmpty())
            return;
        QString error;
        if (!profile_detail::parseTimestamp(QJsonValue(edit->text()), out, &error))
            local.insert(edit->objectName(), error);
    };
    timestamp(m_startTimestamp, p.start == StartPosition::Timestamp, &p.startTimestamp);
    timestamp(m_stopTimestamp, p.stop == StopCondition::AtTimestamp, &p.stopTimestamp);
    p.stopAfterRecords = p.stop == StopCondition::AfterRecords ? qint64(m_stopRecords->value()) : 0;
    p.delivery = DeliveryGuarantee(m_delivery->currentIndex());
    p.offsetMap = m_offsetMap->isChecked();
    // Kept while at-least-once too, so switching back and forth loses nothing.
    p.transactionIntervalMs = m_transactionInterval->value();
    p.transactionMaxRecords = m_transactionRecords->value();
    p.createTopics = m_createTopics->isChecked();
    p.syncTopicConfigs = m_syncConfigs->isChecked();
    p.configExclude = lines(m_configExclude);
    // Kept while sync is off too, so turning it off and on again loses nothing.
    p.syncAcls = m_syncAcls->isChecked();
    p.aclSyncIntervalMs = m_aclInterval->value();
    p.aclSyncMode = m_aclMode->currentText() == aclSyncModeName(MirrorJobSpec::AclSyncMode::Exact)
                        ? MirrorJobSpec::AclSyncMode::Exact
                        : MirrorJobSpec::AclSyncMode::Safe;
    p.syncSchemas = m_syncSchemas->isChecked();
    p.schemaIds = m_schemaIds->currentText() == schemaIdsName(MirrorJobSpec::SchemaIds::Preserve)
                      ? MirrorJobSpec::SchemaIds::Preserve
                      : MirrorJobSpec::SchemaIds::Translate;
    p.schemaSubjectsInclude = lines(m_schemaInclude);
    p.schemaSubjectsExclude = lines(m_schemaExclude);
    p.schemaSyncIntervalMs = m_schemaInterval->value();
    p.throttleBytesPerSecond = qint64(m_throttle->value());
    p.samplingIntervalMs = m_sampling->value();
    p.topicRefreshIntervalMs = m_refresh->value();
    return p;
}

void JobEditor::edited()
{
    if (m_loading)
        return;
    const JobProfile now = collect();
    // The document first: the push's indexChanged reads its modified flag.
    m_doc->setProfile(now);
    syncPendingSecrets();
    if (!(now == m_shown)) {
        const JobProfile before = m_shown;
        m_shown = now;
        m_undo->push(new ProfileEditCommand(this, before, now, sender()));
    }
    updateEnabled();
    m_validateTimer->start();
}

void JobEditor::syncPendingSecrets()
{
    // A typed secret the profile does not refer to (a registry password while
    // the token is chosen) is not stored either.
    QStringList referenced;
    for (const ProfileSide *s : {&m_doc->profile().source, &m_doc->profile().target})
        referenced << s->saslPassword << s->sslKeyPassword << s->registryPassword << s->registryToken;
    for (SecretField *f : secretFields()) {
        if (const std::optional<PendingSecret> s = f->pending(); s && referenced.contains(f->profileValue()))
            m_doc->setPendingSecret(*s);
        else
            m_doc->clearPendingSecret(f->objectName());
    }
}

void JobEditor::applyProfile(const JobProfile &p)
{
    load(p);
    m_shown = p;
    m_applying = true;
    m_doc->setProfile(p);
    syncPendingSecrets();
    m_applying = false;
    updateEnabled();
    m_validateTimer->start();
}

void JobEditor::updateEnabled()
{
    for (const SideWidgets *w : {&m_source, &m_target}) {
        const QString sec = w->security->currentText();
        const bool sasl = sec.startsWith(QLatin1String("sasl"));
        const bool ssl = sec.endsWith(QLatin1String("ssl"));
        for (QWidget *x : {static_cast<QWidget *>(w->mechanism), static_cast<QWidget *>(w->username),
                           static_cast<QWidget *>(w->password)})
            x->setEnabled(sasl);
        for (QWidget *x : {static_cast<QWidget *>(w->sslCa), static_cast<QWidget *>(w->sslCert),
                           static_cast<QWidget *>(w->sslKey), static_cast<QWidget *>(w->keyPassword)})
            x->setEnabled(ssl);
        const QString auth = w->registryAuth->currentData().toString();
        w->registryUser->setEnabled(auth == QLatin1String("basic"));
        w->registryPassword->setEnabled(auth == QLatin1String("basic"));
        w->registryToken->setEnabled(auth == QLatin1String("bearer"));
    }
    const QString naming = m_naming->currentText();
    m_separator->setEnabled(naming == QLatin1String("prefix"));
    m_template->setEnabled(naming == QLatin1String("template"));
    m_startTimestamp->setEnabled(m_start->currentText() == QLatin1String("timestamp"));
    m_stopTimestamp->setEnabled(m_stop->currentText() == QLatin1String("timestamp"));
    m_stopRecords->setEnabled(m_stop->currentText() == QLatin1String("records"));
    const bool transactions = m_delivery->currentIndex() == int(DeliveryGuarantee::ExactlyOnce);
    m_transactionInterval->setEnabled(transactions);
    m_transactionRecords->setEnabled(transactions);
    m_aclInterval->setEnabled(m_syncAcls->isChecked());
    m_aclMode->setEnabled(m_syncAcls->isChecked());
    for (QWidget *w : std::initializer_list<QWidget *>{m_schemaIds, m_schemaInclude, m_schemaExclude, m_schemaInterval})
        w->setEnabled(m_syncSchemas->isChecked());
    m_groupId->setPlaceholderText(JobProfile::groupIdForName(m_name->text()));
}

void JobEditor::validateNow()
{
    m_validateTimer->stop();
    // The same parser and checks as `mirrordesk check` on the file a save would write.
    m_issues = m_doc->issues();
    showIssues();
    const bool errors = hasErrors(m_issues) || !m_localIssues.isEmpty();
    m_run->setEnabled(!errors);
    if (errors) {
        QString first;
        for (const ProfileIssue &i : std::as_const(m_issues)) {
            if (i.isError()) {
                first = (i.keyPath.isEmpty() ? QString() : i.keyPath + QStringLiteral(": ")) + i.message;
                break;
            }
        }
        if (first.isEmpty() && !m_localIssues.isEmpty())
            first = m_localIssues.constBegin().key() + QStringLiteral(": ") + m_localIssues.constBegin().value();
        m_plan->setInvalid(first);
    } else {
        m_plan->setProfile(m_doc->profile(), m_resolver);
    }
}

void JobEditor::showIssues()
{
    QHash<QWidget *, QStringList> perField;
    m_issueList->clear();
    auto add = [&](const QString &keyPath, bool error, const QString &message, const QString &listText) {
        auto *item = new QListWidgetItem(listText, m_issueList);
        item->setData(Qt::UserRole, keyPath);
        item->setForeground(error ? QColor(0xb0, 0x00, 0x20) : QColor(0x8a, 0x5a, 0x00));
        if (QWidget *w = fieldFor(keyPath)) {
            // Name the element when the field holds several ("topics.include[1]").
            const QString where = fieldPath(keyPath) != keyPath
                                      ? keyPath.mid(fieldPath(keyPath).size()) + QStringLiteral(": ")
                                      : QString();
            perField[w].append((error ? tr("error: ") : tr("warning: ")) + where + message);
        }
    };
    for (const ProfileIssue &i : std::as_const(m_issues))
        add(i.keyPath, i.isError(), i.message, i.toString());
    for (auto it = m_localIssues.constBegin(); it != m_localIssues.constEnd(); ++it)
        add(it.key(), true, it.value(), it.key() + QStringLiteral(": error: ") + it.value());
    for (auto it = m_fieldIssues.constBegin(); it != m_fieldIssues.constEnd(); ++it) {
        const QStringList texts = perField.value(it.key());
        it.value()->setText(texts.join(QLatin1Char('\n')));
        it.value()->setVisible(!texts.isEmpty());
        bool error = false;
        for (const QString &t : texts)
            error = error || t.startsWith(tr("error: "));
        it.value()->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QStringLiteral("color: #8a5a00;"));
    }
}

QWidget *JobEditor::fieldFor(const QString &keyPath) const
{
    QString p = fieldPath(keyPath);
    while (!p.isEmpty()) {
        if (QWidget *w = m_fields.value(p))
            return w;
        const qsizetype dot = p.lastIndexOf(QLatin1Char('.'));
        if (dot < 0)
            break;
        p.truncate(dot);
    }
    return nullptr;
}

QString JobEditor::fieldIssueText(const QString &keyPath) const
{
    QWidget *w = fieldFor(keyPath);
    const QLabel *label = w ? m_fieldIssues.value(w) : nullptr;
    return label && !label->isHidden() ? label->text() : QString();
}

void JobEditor::pendingSecretsToEnvironment()
{
    const std::pair<SideWidgets *, QString> sides[] = {{&m_source, QStringLiteral("source")},
                                                       {&m_target, QStringLiteral("target")}};
    for (const auto &[w, side] : sides) {
        QString alias = w->alias->text().trimmed().toUpper();
        alias.replace(QRegularExpression(QStringLiteral("[^A-Z0-9]+")), QStringLiteral("_"));
        if (alias.isEmpty())
            alias = side.toUpper();
        w->password->pendingToEnvironment(alias + QStringLiteral("_KAFKA_PASSWORD"));
        w->keyPassword->pendingToEnvironment(alias + QStringLiteral("_SSL_KEY_PASSWORD"));
        w->registryPassword->pendingToEnvironment(alias + QStringLiteral("_REGISTRY_PASSWORD"));
        w->registryToken->pendingToEnvironment(alias + QStringLiteral("_REGISTRY_TOKEN"));
    }
    edited();
    validateNow();
}

void JobEditor::pendingSecretsToClearText()
{
    for (SecretField *f : secretFields())
        f->pendingToClearText();
    edited();
    validateNow();
}

void JobEditor::secretsStored()
{
    for (SecretField *f : secretFields())
        f->stored();
    edited();
}

QList<SecretField *> JobEditor::secretFields() const
{
    QList<SecretField *> out;
    for (const SideWidgets *w : {&m_source, &m_target})
        out << w->password << w->keyPassword << w->registryPassword << w->registryToken;
    return out;
}

} // namespace md
