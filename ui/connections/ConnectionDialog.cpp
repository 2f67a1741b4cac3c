// ConnectionDialog: the list of saved connections and the form of the selected
// one. The secrets live in ConnectionDialogSecrets.cpp, the connection test in
// ConnectionDialogTest.cpp, the schema registry's fields and probe in
// ConnectionDialogRegistry.cpp.
#include "ui/connections/ConnectionDialog.h"

#include "ui/widgets/FormLabels.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace md {

QString ConnectionDialog::joinIssues(const QList<ConnectionIssue> &issues)
{
    QStringList lines;
    for (const ConnectionIssue &i : issues)
        lines.append(i.toString());
    return lines.join(QLatin1Char('\n'));
}

ConnectionDialog::ConnectionDialog(ConnectionStore *store, SecretStore *secrets, QWidget *parent)
    : QDialog(parent), m_store(store), m_secrets(secrets)
{
    init();
}

ConnectionDialog::ConnectionDialog(QWidget *parent)
    : QDialog(parent), m_ownedStore(std::make_unique<ConnectionStore>()), m_store(m_ownedStore.get()),
      m_secrets(new SecretStore({}, this))
{
    init();
}

ConnectionDialog::~ConnectionDialog() = default;

void ConnectionDialog::init()
{
    setWindowTitle(tr("Connections"));
    buildUi();
    connect(m_secrets, &SecretStore::availabilityChanged, this, &ConnectionDialog::updateKeychainNote);
    m_secrets->checkAvailability([self = QPointer<ConnectionDialog>(this)](bool, QString) {
        if (self)
            self->updateKeychainNote();
    });
    updateKeychainNote();
    const QStringList names = m_store->names();
    reloadList(names.isEmpty() ? QString() : names.first());
}

void ConnectionDialog::buildUi()
{
    auto *splitter = new QSplitter(this);

    auto *left = new QWidget(splitter);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_list = new QListWidget(left);
    m_list->setObjectName(QStringLiteral("connectionList"));
    leftLayout->addWidget(m_list);
    auto *listButtons = new QHBoxLayout;
    auto makeButton = [this](const QString &text, const QString &name, QWidget *parent) {
        auto *b = new QPushButton(text, parent);
        b->setObjectName(name);
        b->setAutoDefault(false);
        return b;
    };
    m_addButton = makeButton(tr("Add"), QStringLiteral("addButton"), left);
    m_duplicateButton = makeButton(tr("Duplicate"), QStringLiteral("duplicateButton"), left);
    m_renameButton = makeButton(tr("Rename…"), QStringLiteral("renameButton"), left);
    m_removeButton = makeButton(tr("Remove"), QStringLiteral("removeButton"), left);
    for (QPushButton *b : {m_addButton, m_duplicateButton, m_renameButton, m_removeButton})
        listButtons->addWidget(b);
    leftLayout->addLayout(listButtons);

    auto *right = new QWidget(splitter);
    auto *form = new QFormLayout;
    auto lineEdit = [this, right](const QString &name, const QString &placeholder) {
        auto *e = new QLineEdit(right);
        e->setObjectName(name);
        e->setPlaceholderText(placeholder);
        connect(e, &QLineEdit::textChanged, this, [this] { setDirty(true); });
        return e;
    };
    m_name = lineEdit(QStringLiteral("nameEdit"), tr("e.g. prod-eu"));
    m_bootstrap = lineEdit(QStringLiteral("bootstrapEdit"), tr("host:port[,host:port...]"));
    m_security = new QComboBox(right);
    m_security->setObjectName(QStringLiteral("securityCombo"));
    m_security->addItem(QStringLiteral("PLAINTEXT"), int(SecurityProtocol::Plaintext));
    m_security->addItem(QStringLiteral("SSL"), int(SecurityProtocol::Ssl));
    m_security->addItem(QStringLiteral("SASL_PLAINTEXT"), int(SecurityProtocol::SaslPlaintext));
    m_security->addItem(QStringLiteral("SASL_SSL"), int(SecurityProtocol::SaslSsl));
    m_mechanism = new QComboBox(right);
    m_mechanism->setObjectName(QStringLiteral("mechanismCombo"));
    m_mechanism->addItems(saslMechanisms());
    m_user = lineEdit(QStringLiteral("userEdit"), {});
    m_password = lineEdit(QStringLiteral("passwordEdit"), {});
    m_password->setEchoMode(QLineEdit::Password);
    m_remember = new QCheckBox(tr("Keep passwords in the system keychain"), right);
    m_remember->setObjectName(QStringLiteral("rememberCheck"));
    m_remember->setChecked(true);
    m_keychainNote = new QLabel(right);
    m_keychainNote->setObjectName(QStringLiteral("keychainNote"));
    m_keychainNote->setWordWrap(true);
    m_keychainNote->setVisible(false);
    m_caFile = lineEdit(QStringLiteral("caFileEdit"), tr("system CA store"));
    m_certFile = lineEdit(QStringLiteral("certFileEdit"), tr("none (no client certificate)"));
    m_keyFile = lineEdit(QStringLiteral("keyFileEdit"), tr("none"));
    m_keyPassword = lineEdit(QStringLiteral("keyPasswordEdit"), {});
    m_keyPassword->setEchoMode(QLineEdit::Password);
    auto fileRow = [this, right](QLineEdit *edit, const QString &title) {
        auto *row = new QWidget(right);
        auto *h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(edit);
        auto *browse = new QPushButton(tr("Browse…"), row);
        browse->setAutoDefault(false);
        connect(browse, &QPushButton::clicked, this, [this, edit, title] { pickFile(edit, title); });
        h->addWidget(browse);
        return row;
    };
    m_properties = new QPlainTextEdit(right);
    m_properties->setObjectName(QStringLiteral("propertiesEdit"));
    m_properties->setPlaceholderText(tr("extra librdkafka properties, one key=value a line\n"
                                        "(no passwords: those belong in the password field)"));
    m_properties->setTabChangesFocus(true);
    // A few lines are enough; its default height would push the registry out of view.
    m_properties->setMaximumHeight(m_properties->fontMetrics().lineSpacing() * 4 + 2 * m_properties->frameWidth() + 8);
    connect(m_properties, &QPlainTextEdit::textChanged, this, [this] { setDirty(true); });

    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("Bootstrap servers:"), m_bootstrap);
    form->addRow(tr("Security protocol:"), m_security);
    auto addTracked = [form](const QString &label, QWidget *field, QList<QWidget *> &group) {
        form->addRow(label, field);
        group.append(field);
        group.append(form->labelForField(field));
    };
    addTracked(tr("SASL mechanism:"), m_mechanism, m_saslWidgets);
    addTracked(tr("User:"), m_user, m_saslWidgets);
    addTracked(tr("Password:"), m_password, m_saslWidgets);
    addTracked(tr("CA certificate file:"), fileRow(m_caFile, tr("CA certificate")), m_sslWidgets);
    addTracked(tr("Client certificate file:"), fileRow(m_certFile, tr("Client certificate")), m_sslWidgets);
    addTracked(tr("Client key file:"), fileRow(m_keyFile, tr("Client key")), m_sslWidgets);
    addTracked(tr("Client key password:"), m_keyPassword, m_sslWidgets);
    form->addRow(QString(), m_remember);
    form->addRow(QString(), m_keychainNote);
    form->addRow(tr("Extra properties:"), m_properties);

    m_status = new QLabel(right);
    m_status->setObjectName(QStringLiteral("statusLabel"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setMinimumHeight(m_status->fontMetrics().height() * 3);

    auto *actions = new QHBoxLayout;
    m_saveButton = makeButton(tr("Save"), QStringLiteral("saveButton"), right);
    m_testButton = makeButton(tr("Test connection"), QStringLiteral("testButton"), right);
    m_sourceButton = makeButton(tr("Connect as source"), QStringLiteral("sourceButton"), right);
    m_targetButton = makeButton(tr("Connect as target"), QStringLiteral("targetButton"), right);
    auto *close = makeButton(tr("Close"), QStringLiteral("closeButton"), right);
    actions->addWidget(m_saveButton);
    actions->addWidget(m_testButton);
    actions->addStretch();
    actions->addWidget(m_sourceButton);
    actions->addWidget(m_targetButton);
    actions->addWidget(close);

    // The fields scroll rather than squeeze on a short screen (1366x768 with
    // the keychain note and the registry group); status and buttons stay in view.
    auto *fields = new QWidget;
    auto *fieldsLayout = new QVBoxLayout(fields);
    fieldsLayout->setContentsMargins(0, 0, 0, 0);
    fieldsLayout->addLayout(form);
    QGroupBox *registry = buildRegistryGroup(fields);
    fieldsLayout->addWidget(registry);
    // One label column for both forms: the registry's fields line up with the cluster's.
    alignFormLabels({form, qobject_cast<QFormLayout *>(registry->layout())});
    fieldsLayout->addStretch();
    auto *fieldsArea = new QScrollArea(right);
    fieldsArea->setObjectName(QStringLiteral("fieldsArea"));
    fieldsArea->setFrameShape(QFrame::NoFrame);
    fieldsArea->setWidgetResizable(true);
    fieldsArea->setWidget(fields);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(fieldsArea, 1);
    rightLayout->addWidget(m_status);
    rightLayout->addWidget(m_registryStatus);
    rightLayout->addLayout(actions);

    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 3);
    auto *top = new QVBoxLayout(this);
    top->addWidget(splitter);
    const QRect screenArea = screen()->availableGeometry();
    resize(std::min(900, screenArea.width() - 40), std::min(720, screenArea.height() - 60));

    connect(m_list, &QListWidget::currentRowChanged, this, &ConnectionDialog::onSelectionChanged);
    connect(m_security, &QComboBox::currentIndexChanged, this, [this] {
        updateProtocolFields();
        setDirty(true);
    });
    connect(m_mechanism, &QComboBox::currentIndexChanged, this, [this] { setDirty(true); });
    connect(m_remember, &QCheckBox::toggled, this, [this] { setDirty(true); });
    connect(m_addButton, &QPushButton::clicked, this, &ConnectionDialog::addConnection);
    connect(m_duplicateButton, &QPushButton::clicked, this, &ConnectionDialog::duplicateConnection);
    connect(m_renameButton, &QPushButton::clicked, this, &ConnectionDialog::renameConnection);
    connect(m_removeButton, &QPushButton::clicked, this, &ConnectionDialog::removeConnection);
    connect(m_saveButton, &QPushButton::clicked, this, &ConnectionDialog::saveConnection);
    connect(m_testButton, &QPushButton::clicked, this, &ConnectionDialog::testConnection);
    connect(m_sourceButton, &QPushButton::clicked, this, &ConnectionDialog::connectAsSource);
    connect(m_targetButton, &QPushButton::clicked, this, &ConnectionDialog::connectAsTarget);
    connect(close, &QPushButton::clicked, this, &QDialog::reject);
    updateProtocolFields();
}

QString ConnectionDialog::currentName() const
{
    return m_current;
}

bool ConnectionDialog::selectConnection(const QString &name)
{
    const QList<QListWidgetItem *> found = m_list->findItems(name, Qt::MatchExactly);
    if (found.isEmpty())
        return false;
    m_list->setCurrentItem(found.first());
    return m_current == name;
}

void ConnectionDialog::reloadList(const QString &select)
{
    m_loading = true;
    m_list->clear();
    m_list->addItems(m_store->names());
    m_loading = false;
    const QList<QListWidgetItem *> found = m_list->findItems(select, Qt::MatchExactly);
    if (!found.isEmpty()) {
        m_loading = true;
        m_list->setCurrentItem(found.first());
        m_loading = false;
        if (const std::optional<Connection> c = m_store->connection(select))
            showConnection(*c);
    } else {
        clearForm();
    }
    const bool any = m_list->count() > 0;
    for (QWidget *w : {static_cast<QWidget *>(m_duplicateButton), static_cast<QWidget *>(m_renameButton),
                       static_cast<QWidget *>(m_removeButton)})
        w->setEnabled(any && !m_current.isEmpty());
}

void ConnectionDialog::clearForm()
{
    Connection empty;
    showConnection(empty);
    m_current.clear();
}

void ConnectionDialog::showConnection(const Connection &c)
{
    m_loading = true;
    m_current = c.name;
    m_name->setText(c.name);
    m_bootstrap->setText(c.bootstrap);
    m_security->setCurrentIndex(m_security->findData(int(c.security)));
    const int mech = m_mechanism->findText(c.saslMechanism);
    m_mechanism->setCurrentIndex(mech < 0 ? 0 : mech);
    m_user->setText(c.saslUsername);
    m_password->clear();
    m_keyPassword->clear();
    m_caFile->setText(c.sslCaFile);
    m_certFile->setText(c.sslCertFile);
    m_keyFile->setText(c.sslKeyFile);
    m_properties->setPlainText(formatPropertyLines(c.properties));
    m_registryUrl->setText(c.registryUrl);
    m_registryAuth->setCurrentIndex(m_registryAuth->findData(int(c.registryAuth)));
    m_registryUser->setText(c.registryUsername);
    m_registrySecret->clear();
    m_registryCa->setText(c.registryCaFile);
    m_registryStatus->clear();
    m_registryStatus->hide();
    showRegistryIssues({});
    m_loading = false;
    updateProtocolFields();
    updateRegistryFields();
    updateKeychainNote();
    setDirty(false);
}

void ConnectionDialog::updateProtocolFields()
{
    const auto security = SecurityProtocol(m_security->currentData().toInt());
    const bool sasl = security == SecurityProtocol::SaslPlaintext || security == SecurityProtocol::SaslSsl;
    const bool ssl = security == SecurityProtocol::Ssl || security == SecurityProtocol::SaslSsl;
    for (QWidget *w : std::as_const(m_saslWidgets))
        if (w)
            w->setEnabled(sasl);
    for (QWidget *w : std::as_const(m_sslWidgets))
        if (w)
            w->setEnabled(ssl);
    const bool registrySecret = RegistryAuth(m_registryAuth->currentData().toInt()) != RegistryAuth::None;
    m_remember->setEnabled((sasl || ssl || registrySecret) &&
                           m_secrets->availability() != SecretStore::Availability::Unavailable);
}

void ConnectionDialog::updateKeychainNote()
{
    const bool unavailable = m_secrets->availability() == SecretStore::Availability::Unavailable;
    if (unavailable) {
        m_keychainNote->setText(tr("Passwords are not saved: %1. MirrorDesk asks for the password each time "
                                   "it connects.")
                                    .arg(m_secrets->unavailableReason()));
        m_password->setPlaceholderText(tr("asked when connecting"));
        m_keyPassword->setPlaceholderText(tr("asked when connecting, if the key is encrypted"));
        m_registrySecret->setPlaceholderText(tr("asked when connecting"));
    } else if (m_current.isEmpty()) {
        m_password->setPlaceholderText(QString());
        m_keyPassword->setPlaceholderText(tr("only for an encrypted key"));
        m_registrySecret->setPlaceholderText(QString());
    } else {
        m_password->setPlaceholderText(tr("leave empty to use the password in the keychain"));
        m_keyPassword->setPlaceholderText(tr("leave empty to use the keychain (encrypted keys only)"));
        m_registrySecret->setPlaceholderText(tr("leave empty to use the keychain"));
    }
    m_keychainNote->setVisible(unavailable);
    const QSignalBlocker block(m_remember);
    m_remember->setEnabled(!unavailable &&
                           (m_password->isEnabled() || m_keyPassword->isEnabled() || m_registrySecret->isEnabled()));
    if (unavailable)
        m_remember->setChecked(false);
}

void ConnectionDialog::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setProperty("error", error);
    m_status->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
}

void ConnectionDialog::setDirty(bool dirty)
{
    if (m_loading)
        return;
    m_dirty = dirty;
    m_saveButton->setEnabled(dirty || m_current.isEmpty());
}

Connection ConnectionDialog::formConnection(QList<ConnectionIssue> *issues) const
{
    QList<ConnectionIssue> found;
    Connection c;
    c.name = m_name->text();
    c.bootstrap = m_bootstrap->text().trimmed();
    c.security = SecurityProtocol(m_security->currentData().toInt());
    if (c.usesSasl()) {
        c.saslMechanism = m_mechanism->currentText();
        c.saslUsername = m_user->text().trimmed();
    }
    if (c.usesSsl()) {
        c.sslCaFile = m_caFile->text().trimmed();
        c.sslCertFile = m_certFile->text().trimmed();
        c.sslKeyFile = m_keyFile->text().trimmed();
    }
    c.properties = parsePropertyLines(m_properties->toPlainText(), &found);
    // Kept even without a URL, so that validation names the missing URL
    // instead of dropping the authentication silently.
    c.registryUrl = m_registryUrl->text().trimmed();
    c.registryAuth = RegistryAuth(m_registryAuth->currentData().toInt());
    if (c.registryAuth == RegistryAuth::Basic)
        c.registryUsername = m_registryUser->text().trimmed();
    c.registryCaFile = m_registryCa->text().trimmed();
    found.append(validateConnection(c));
    if (issues)
        *issues = found;
    return c;
}

void ConnectionDialog::onSelectionChanged()
{
    if (m_loading)
        return;
    QListWidgetItem *item = m_list->currentItem();
    const QString name = item ? item->text() : QString();
    if (name == m_current)
        return;
    // Edits are kept, not silently dropped: save them, or stay when they do not validate.
    if (m_dirty && !m_current.isEmpty() && !saveConnection()) {
        const QList<QListWidgetItem *> back = m_list->findItems(m_current, Qt::MatchExactly);
        m_loading = true;
        if (!back.isEmpty())
            m_list->setCurrentItem(back.first());
        m_loading = false;
        return;
    }
    if (const std::optional<Connection> c = m_store->connection(name)) {
        showConnection(*c);
        setStatus({}, false);
        ++m_saves; // a keychain answer still on its way no longer speaks for what is shown
    }
}

bool ConnectionDialog::saveConnection()
{
    QList<ConnectionIssue> issues;
    const Connection c = formConnection(&issues);
    const QString old = m_current;
    if (issues.isEmpty())
        m_store->replace(old.isEmpty() ? c.name : old, c, &issues);
    if (issues.isEmpty() && !m_store->sync()) {
        QString error;
        m_store->sync(&error);
        issues.append({tr("settings"), error});
    }
    showRegistryIssues(issues);
    if (!issues.isEmpty()) {
        setStatus(tr("Not saved:\n") + joinIssues(issues), true);
        return false;
    }
    const QString password = m_password->text();
    const QString keyPassword = m_keyPassword->text();
    const QString registrySecret = m_registrySecret->text();
    const bool remember = m_remember->isChecked() && m_remember->isEnabled();
    const bool renamed = !old.isEmpty() && old != c.name;
    reloadList(c.name); // shows the saved connection; the typed passwords stay for this session
    m_password->setText(password);
    m_keyPassword->setText(keyPassword);
    m_registrySecret->setText(registrySecret);
    setDirty(false);

    // The secrets answer into one status line, once all have answered.
    auto report = std::make_shared<SecretReport>();
    report->save = ++m_saves;
    keepSecret(c, Secret::SaslPassword, remember, old, renamed, report);
    keepSecret(c, Secret::KeyPassword, remember, old, renamed, report);
    keepSecret(c, Secret::RegistrySecret, remember, old, renamed, report);
    if (report->pending == 0)
        setStatus(tr("Saved."), false);
    else
        setStatus(tr("Saved. Storing %1 in the system keychain…").arg(report->storing.join(tr(" and "))), false);
    return true;
}

void ConnectionDialog::addConnection()
{
    if (m_dirty && !m_current.isEmpty() && !saveConnection())
        return;
    QString name = tr("new connection");
    for (int n = 2; m_store->contains(name); ++n)
        name = tr("new connection %1").arg(n);
    Connection c;
    c.name = name;
    c.bootstrap = QStringLiteral("localhost:9092");
    QList<ConnectionIssue> issues;
    if (!m_store->save(c, &issues)) {
        setStatus(joinIssues(issues), true);
        return;
    }
    reloadList(name);
    m_name->setFocus();
    m_name->selectAll();
    setStatus(tr("Added \"%1\": fill in its settings and save.").arg(name), false);
}

void ConnectionDialog::duplicateConnection()
{
    if (m_current.isEmpty())
        return;
    if (m_dirty && !saveConnection())
        return;
    std::optional<Connection> c = m_store->connection(m_current);
    if (!c)
        return;
    const QString original = c->name;
    c->name = m_store->copyName(original);
    QList<ConnectionIssue> issues;
    if (!m_store->save(*c, &issues)) {
        setStatus(tr("Not duplicated:\n") + joinIssues(issues), true);
        return;
    }
    moveSecret(original, c->name, true);
    reloadList(c->name);
    setStatus(tr("Duplicated \"%1\" as \"%2\".").arg(original, c->name), false);
}

void ConnectionDialog::renameConnection()
{
    if (m_current.isEmpty())
        return;
    if (m_prompt)
        m_prompt->close();
    auto *dlg = new QInputDialog(this);
    dlg->setObjectName(QStringLiteral("renamePrompt"));
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->setWindowTitle(tr("Rename connection"));
    dlg->setLabelText(tr("New name for \"%1\":").arg(m_current));
    dlg->setTextValue(m_current);
    const QString old = m_current;
    connect(dlg, &QInputDialog::textValueSelected, this, [this, old](const QString &newName) {
        if (newName == old)
            return;
        if (m_dirty && !saveConnection())
            return;
        QList<ConnectionIssue> issues;
        if (!m_store->rename(old, newName, &issues)) {
            setStatus(tr("Not renamed:\n") + joinIssues(issues), true);
            return;
        }
        moveSecret(old, newName, false);
        reloadList(newName);
        setStatus(tr("Renamed \"%1\" to \"%2\".").arg(old, newName), false);
    });
    m_prompt = dlg;
    dlg->open();
}

void ConnectionDialog::removeConnection()
{
    if (m_current.isEmpty())
        return;
    const QString name = m_current;
    if (m_confirmRemovals &&
        QMessageBox::question(this, tr("Remove connection"),
                              tr("Remove the connection \"%1\" and its saved password?").arg(name)) != QMessageBox::Yes)
        return;
    m_store->remove(name);
    m_store->sync();
    m_secrets->removePassword(SecretStore::connectionPasswordKey(name), [](bool, QString) {});
    m_secrets->removePassword(SecretStore::connectionKeyPasswordKey(name), [](bool, QString) {});
    m_secrets->removePassword(SecretStore::connectionRegistrySecretKey(name), [](bool, QString) {});
    const QStringList names = m_store->names();
    m_dirty = false;
    reloadList(names.isEmpty() ? QString() : names.first());
    setStatus(tr("Removed \"%1\".").arg(name), false);
}

void ConnectionDialog::requestConnect(Side side)
{
    QList<ConnectionIssue> issues;
    const Connection c = formConnection(&issues);
    showRegistryIssues(issues);
    if (!issues.isEmpty()) {
        setStatus(tr("Cannot connect:\n") + joinIssues(issues), true);
        return;
    }
    QPointer<ConnectionDialog> self(this);
    withSecrets(c, [self, c, side](const Secrets &secrets) {
        if (!self)
            return;
        self->setStatus(side == Side::Source ? tr("Connecting the source pane to %1.").arg(c.bootstrap)
                                             : tr("Connecting the target pane to %1.").arg(c.bootstrap),
                        false);
        Q_EMIT self->connectRequested(
            side, c.toClusterConfig(secrets.saslPassword, secrets.keyPassword, secrets.registrySecret));
    });
}

void ConnectionDialog::connectAsSource()
{
    requestConnect(Side::Source);
}

void ConnectionDialog::connectAsTarget()
{
    requestConnect(Side::Target);
}

void ConnectionDialog::pickFile(QLineEdit *edit, const QString &title)
{
    const QString start = edit->text().isEmpty() ? QString() : edit->text();
    const QString path = QFileDialog::getOpenFileName(
        this, title, start, tr("Certificates and keys (*.pem *.crt *.cer *.key);;All files (*)"));
    if (!path.isEmpty())
        edit->setText(path);
}

} // namespace md
