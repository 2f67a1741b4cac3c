// ConnectionDialog's schema registry: its group of fields (URL, authentication,
// user, password or token, CA), their problems shown under them, and its half
// of "Test connection": the registry probe, run in the background
// (md::inBackground) beside the cluster's and answered on its own line.
#include "ui/connections/ConnectionDialog.h"

#include "ui/widgets/Background.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace md {

namespace {

// Like the cluster's probe: the client gives up after 8 s, the dialog answers at 10 s.
constexpr int kRegistryTimeoutMs = 8000;
constexpr int kRegistryAnswerWithinMs = 10000;

bool isRegistryField(const QString &field)
{
    return field.startsWith(QLatin1String("schema registry")) || field.startsWith(QLatin1String("registry"));
}

QString inParentheses(const QString &detail)
{
    return detail.isEmpty() ? QString() : QStringLiteral(" (") + detail + QLatin1Char(')');
}

} // namespace

QGroupBox *ConnectionDialog::buildRegistryGroup(QWidget *parent)
{
    m_registryGroup = new QGroupBox(tr("Schema registry"), parent);
    m_registryGroup->setObjectName(QStringLiteral("registryGroup"));
    // A titled section of the same form, not a box within it: flat, and no
    // side margins, so its fields line up with the cluster's.
    m_registryGroup->setFlat(true);
    auto *form = new QFormLayout(m_registryGroup);
    const QMargins margins = form->contentsMargins();
    form->setContentsMargins(0, margins.top(), 0, margins.bottom());
    auto lineEdit = [this](const QString &name, const QString &placeholder) {
        auto *e = new QLineEdit(m_registryGroup);
        e->setObjectName(name);
        e->setPlaceholderText(placeholder);
        connect(e, &QLineEdit::textChanged, this, [this] { setDirty(true); });
        return e;
    };
    m_registryUrl = lineEdit(QStringLiteral("registryUrlEdit"), tr("none; e.g. https://registry:8081"));
    m_registryUrl->setToolTip(tr("The registry's base URL; it may carry a path: Apicurio serves the Confluent API "
                                 "under /apis/ccompat/v7. No user or password in it: use Authentication."));
    m_registryIssue = new QLabel(m_registryGroup);
    m_registryIssue->setObjectName(QStringLiteral("registryIssueLabel"));
    m_registryIssue->setWordWrap(true);
    m_registryIssue->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_registryIssue->hide();
    auto *urlBox = new QWidget(m_registryGroup);
    auto *urlLayout = new QVBoxLayout(urlBox);
    urlLayout->setContentsMargins(0, 0, 0, 0);
    urlLayout->setSpacing(2);
    urlLayout->addWidget(m_registryUrl);
    urlLayout->addWidget(m_registryIssue);

    m_registryAuth = new QComboBox(m_registryGroup);
    m_registryAuth->setObjectName(QStringLiteral("registryAuthCombo"));
    m_registryAuth->addItem(tr("None"), int(RegistryAuth::None));
    m_registryAuth->addItem(tr("Basic (user and password)"), int(RegistryAuth::Basic));
    m_registryAuth->addItem(tr("Bearer token"), int(RegistryAuth::Bearer));
    m_registryUser = lineEdit(QStringLiteral("registryUserEdit"), {});
    m_registrySecret = lineEdit(QStringLiteral("registrySecretEdit"), {});
    m_registrySecret->setEchoMode(QLineEdit::Password);
    m_registryCa = lineEdit(QStringLiteral("registryCaEdit"), tr("system CA store"));
    auto *caRow = new QWidget(m_registryGroup);
    auto *caLayout = new QHBoxLayout(caRow);
    caLayout->setContentsMargins(0, 0, 0, 0);
    caLayout->addWidget(m_registryCa);
    auto *browse = new QPushButton(tr("Browse…"), caRow);
    browse->setObjectName(QStringLiteral("registryCaBrowse"));
    browse->setAutoDefault(false);
    connect(browse, &QPushButton::clicked, this, [this] { pickFile(m_registryCa, tr("Registry CA certificate")); });
    caLayout->addWidget(browse);

    // Placed under the cluster's status by buildUi, where a test's answers are always in view.
    m_registryStatus = new QLabel(m_registryGroup);
    m_registryStatus->setObjectName(QStringLiteral("registryStatusLabel"));
    m_registryStatus->setWordWrap(true);
    m_registryStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_registryStatus->hide();

    form->addRow(tr("URL:"), urlBox);
    form->addRow(tr("Authentication:"), m_registryAuth);
    form->addRow(tr("User:"), m_registryUser);
    form->addRow(tr("Password:"), m_registrySecret);
    m_registrySecretLabel = qobject_cast<QLabel *>(form->labelForField(m_registrySecret));
    form->addRow(tr("CA certificate file:"), caRow);

    connect(m_registryAuth, &QComboBox::currentIndexChanged, this, [this] {
        updateRegistryFields();
        setDirty(true);
    });
    // The URL's problem shows once the user leaves the field, and goes away as soon as it is fixed.
    auto recheck = [this](bool always) {
        if (m_loading || (!always && m_registryIssue->isHidden()))
            return;
        QList<ConnectionIssue> issues;
        formConnection(&issues);
        showRegistryIssues(issues);
    };
    connect(m_registryUrl, &QLineEdit::textChanged, this, [recheck] { recheck(false); });
    connect(m_registryUrl, &QLineEdit::editingFinished, this, [recheck] { recheck(true); });
    connect(m_registryAuth, &QComboBox::currentIndexChanged, this, [recheck] { recheck(false); });
    connect(m_registryUser, &QLineEdit::textChanged, this, [recheck] { recheck(false); });
    return m_registryGroup;
}

void ConnectionDialog::updateRegistryFields()
{
    const auto auth = RegistryAuth(m_registryAuth->currentData().toInt());
    auto *form = qobject_cast<QFormLayout *>(m_registryGroup->layout());
    m_registryUser->setEnabled(auth == RegistryAuth::Basic);
    if (QWidget *label = form->labelForField(m_registryUser))
        label->setEnabled(auth == RegistryAuth::Basic);
    m_registrySecret->setEnabled(auth != RegistryAuth::None);
    m_registrySecretLabel->setEnabled(auth != RegistryAuth::None);
    m_registrySecretLabel->setText(auth == RegistryAuth::Bearer ? tr("Token:") : tr("Password:"));
    updateProtocolFields(); // the keychain check box follows the secrets in use
}

bool ConnectionDialog::showRegistryIssues(const QList<ConnectionIssue> &issues)
{
    QStringList lines;
    for (const ConnectionIssue &i : issues) {
        if (isRegistryField(i.field))
            lines.append(i.toString());
    }
    m_registryIssue->setText(lines.join(QLatin1Char('\n')));
    m_registryIssue->setVisible(!lines.isEmpty());
    return !lines.isEmpty();
}

void ConnectionDialog::startRegistryTest(const SchemaRegistryConfig &config)
{
    const quint64 generation = ++m_registryGeneration;
    m_registryRunning = config.isSet();
    m_registryStatus->setStyleSheet(QString());
    m_registryStatus->setVisible(config.isSet());
    if (!config.isSet()) {
        m_registryStatus->clear();
        return;
    }
    const QString where = redactedRegistryUrl(config.url);
    m_registryStatus->setText(tr("Schema registry: testing %1…").arg(where));
    // Closing the dialog drops the answer; nothing waits for the probe.
    inBackground<RegistryProbe>(
        this, [config] { return probeSchemaRegistry(config, kRegistryTimeoutMs); },
        [this, generation, where](const RegistryProbe &r) {
            if (r.ok())
                finishRegistryTest(generation, true,
                                   tr("Schema registry: ok, %n subject(s) at %1 in %2 ms", nullptr, r.subjectCount)
                                       .arg(where)
                                       .arg(r.elapsedMs));
            else
                finishRegistryTest(generation, false, tr("Schema registry: %1").arg(explainRegistryFailure(r.error)));
        });
    QTimer::singleShot(kRegistryAnswerWithinMs, this, [this, generation, where] {
        finishRegistryTest(generation, false,
                           tr("Schema registry: unreachable: %1 did not answer within %2 s")
                               .arg(where)
                               .arg(kRegistryAnswerWithinMs / 1000));
    });
}

void ConnectionDialog::finishRegistryTest(quint64 generation, bool ok, const QString &message)
{
    if (generation != m_registryGeneration || !m_registryRunning)
        return; // answered already (the deadline), or a newer test runs
    m_registryRunning = false;
    m_registryStatus->setText(message);
    m_registryStatus->setStyleSheet(ok ? QString() : QStringLiteral("color: #b00020;"));
    m_registryStatus->show();
    Q_EMIT registryTestFinished(ok, message);
}

QString ConnectionDialog::explainRegistryFailure(const RegistryError &error)
{
    const QString detail = inParentheses(error.message);
    switch (error.kind) {
    case RegistryError::Kind::Unauthorized:
        return tr("refused: the registry did not accept the credentials (HTTP %1); check the user and password, "
                  "or the token%2")
            .arg(error.httpStatus)
            .arg(detail);
    case RegistryError::Kind::Unreachable: return tr("unreachable: nothing answered at this URL%1").arg(detail);
    case RegistryError::Kind::Tls:
        return tr("TLS failed: the registry's certificate is not trusted, or the TLS CA file cannot be used%1")
            .arg(detail);
    case RegistryError::Kind::NotFound:
        return tr("not found: no registry API at this URL; check its path (Apicurio serves it under "
                  "/apis/ccompat/v7)%1")
            .arg(detail);
    case RegistryError::Kind::BadResponse:
        return tr("not a schema registry: the answer is not the Confluent API's%1").arg(detail);
    case RegistryError::Kind::Other: return tr("failed: HTTP %1%2").arg(error.httpStatus).arg(detail);
    case RegistryError::Kind::None: break;
    }
    return tr("failed%1").arg(detail);
}

} // namespace md
