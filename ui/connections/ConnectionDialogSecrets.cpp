// ConnectionDialog's secrets: the SASL password, the client key's password and
// the schema registry's password or token,
// typed in the form, kept in the system keychain, moved with a renamed or
// duplicated connection, or asked for when connecting.
#include "ui/connections/ConnectionDialog.h"

#include <QCheckBox>
#include <QInputDialog>
#include <QLineEdit>

namespace md {

void ConnectionDialog::moveSecret(const QString &from, const QString &to, bool keepOld)
{
    if (m_secrets->availability() == SecretStore::Availability::Unavailable)
        return;
    for (const Secret which : {Secret::SaslPassword, Secret::KeyPassword, Secret::RegistrySecret})
        moveOneSecret(from, to, keepOld, which);
}

void ConnectionDialog::moveOneSecret(const QString &from, const QString &to, bool keepOld, Secret which)
{
    if (m_secrets->availability() == SecretStore::Availability::Unavailable)
        return;
    const QString fromKey = secretKey(from, which);
    const QString toKey = secretKey(to, which);
    QPointer<SecretStore> secrets(m_secrets);
    m_secrets->readPassword(fromKey, [secrets, fromKey, toKey, keepOld](std::optional<QString> value, QString) {
        if (!value || !secrets)
            return;
        secrets->writePassword(toKey, *value, [secrets, fromKey, keepOld](bool ok, QString) {
            if (ok && !keepOld && secrets)
                secrets->removePassword(fromKey, [](bool, QString) {});
        });
    });
}

void ConnectionDialog::reportSecrets(const SecretReport &report)
{
    if (report.failed.isEmpty())
        setStatus(report.storing.size() == 1
                      ? tr("Saved; %1 is in the system keychain.").arg(report.storing.constFirst())
                      : tr("Saved; %1 are in the system keychain.").arg(report.storing.join(tr(" and "))),
                  false);
    else
        setStatus((report.failed.size() == 1 ? tr("Saved, but without %1. It will be asked for when connecting.")
                                             : tr("Saved, but without %1. They will be asked for when connecting."))
                      .arg(report.failed.join(tr("; "))),
                  true);
}

void ConnectionDialog::keepSecret(const Connection &c, Secret which, bool remember, const QString &old, bool renamed,
                                  const std::shared_ptr<SecretReport> &report)
{
    const QString typed = secretEdit(which)->text();
    const bool used = which == Secret::SaslPassword  ? c.usesSasl()
                      : which == Secret::KeyPassword ? c.usesSsl() && !c.sslKeyFile.isEmpty()
                                                     : c.usesRegistrySecret();
    if (renamed && typed.isEmpty() && used)
        moveOneSecret(old, c.name, false, which);
    else if (renamed)
        m_secrets->removePassword(secretKey(old, which), [](bool, QString) {});

    const QString key = secretKey(c.name, which);
    const QString what = which == Secret::SaslPassword            ? tr("the password")
                         : which == Secret::KeyPassword           ? tr("the key password")
                         : c.registryAuth == RegistryAuth::Bearer ? tr("the registry token")
                                                                  : tr("the registry password");
    QPointer<ConnectionDialog> self(this);
    if (used && remember && !typed.isEmpty()) {
        ++report->pending;
        report->storing << what;
        m_secrets->writePassword(key, typed, [self, what, report](bool ok, QString error) {
            if (!ok)
                report->failed << tr("%1: %2").arg(what, error);
            // Only the latest save speaks: an earlier one's slow answer
            // must not overwrite what came after it.
            if (--report->pending == 0 && self && self->m_saves == report->save)
                self->reportSecrets(*report);
        });
    } else if (!used || (!remember && m_secrets->availability() != SecretStore::Availability::Unavailable &&
                         m_remember->isEnabled())) {
        // Not needed, or the user asked not to keep it: nothing stays behind in the keychain.
        m_secrets->removePassword(key, [](bool, QString) {});
    }
}

QString ConnectionDialog::secretKey(const QString &connectionName, Secret which)
{
    switch (which) {
    case Secret::SaslPassword: return SecretStore::connectionPasswordKey(connectionName);
    case Secret::KeyPassword: return SecretStore::connectionKeyPasswordKey(connectionName);
    case Secret::RegistrySecret: break;
    }
    return SecretStore::connectionRegistrySecretKey(connectionName);
}

QLineEdit *ConnectionDialog::secretEdit(Secret which) const
{
    switch (which) {
    case Secret::SaslPassword: return m_password;
    case Secret::KeyPassword: return m_keyPassword;
    case Secret::RegistrySecret: break;
    }
    return m_registrySecret;
}

bool ConnectionDialog::needsSecret(const Connection &c, Secret which) const
{
    if (which == Secret::SaslPassword)
        return c.usesSasl();
    if (which == Secret::RegistrySecret)
        return c.usesRegistrySecret();
    // A key password only for a key that is encrypted (or when one was typed):
    // most client keys are not, and asking for nothing would only confuse.
    if (!c.usesSsl() || c.sslKeyFile.isEmpty())
        return false;
    return !m_keyPassword->text().isEmpty() || isEncryptedPrivateKey(c.sslKeyFile);
}

void ConnectionDialog::promptSecret(const Connection &c, Secret which, const QString &why,
                                    std::function<void(QString)> use)
{
    if (m_prompt) {
        m_prompt->setObjectName(QString()); // it is on its way out (deleted later)
        m_prompt->close();
    }
    auto *dlg = new QInputDialog(this);
    dlg->setObjectName(which == Secret::SaslPassword  ? QStringLiteral("passwordPrompt")
                       : which == Secret::KeyPassword ? QStringLiteral("keyPasswordPrompt")
                                                      : QStringLiteral("registrySecretPrompt"));
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->setWindowTitle(tr("Password for %1").arg(c.name.isEmpty() ? c.bootstrap : c.name));
    QString what;
    if (which == Secret::SaslPassword)
        what = tr("Password of SASL user \"%1\" on %2:").arg(c.saslUsername, c.bootstrap);
    else if (which == Secret::KeyPassword)
        what = tr("Password of the client key %1:").arg(c.sslKeyFile);
    else if (c.registryAuth == RegistryAuth::Bearer)
        what = tr("Bearer token for the schema registry %1:").arg(redactedRegistryUrl(c.registryUrl));
    else
        what =
            tr("Password of registry user \"%1\" at %2:").arg(c.registryUsername, redactedRegistryUrl(c.registryUrl));
    dlg->setLabelText(why + QStringLiteral("\n\n") + what);
    dlg->setTextEchoMode(QLineEdit::Password);
    connect(dlg, &QInputDialog::textValueSelected, this, [use = std::move(use)](const QString &pw) { use(pw); });
    connect(dlg, &QDialog::rejected, this, [this] { setStatus(tr("Cancelled: no password given."), true); });
    m_prompt = dlg;
    dlg->open();
}

void ConnectionDialog::withSecret(const Connection &c, Secret which, std::function<void(QString)> use)
{
    if (!needsSecret(c, which))
        return use(QString());
    if (const QString typed = secretEdit(which)->text(); !typed.isEmpty())
        return use(typed);
    if (m_secrets->availability() == SecretStore::Availability::Unavailable)
        return promptSecret(c, which,
                            tr("No system keychain, so no password is saved: %1.").arg(m_secrets->unavailableReason()),
                            std::move(use));
    // A connection not saved yet (or renamed in the form) has no keychain entry of its own.
    const QString name = m_current.isEmpty() ? c.name : m_current;
    QPointer<ConnectionDialog> self(this);
    m_secrets->readPassword(
        secretKey(name, which), [self, c, which, use = std::move(use)](std::optional<QString> value, QString error) {
            if (!self)
                return;
            if (value)
                return use(*value);
            if (error.isEmpty())
                return self->promptSecret(c, which, tr("No password is saved for this connection."), use);
            self->promptSecret(c, which, tr("The system keychain could not give the password: %1.").arg(error), use);
        });
}

void ConnectionDialog::withSecrets(const Connection &c, std::function<void(Secrets)> use)
{
    QPointer<ConnectionDialog> self(this);
    withSecret(c, Secret::SaslPassword, [self, c, use = std::move(use)](const QString &saslPassword) {
        if (!self)
            return;
        self->withSecret(c, Secret::KeyPassword, [self, c, saslPassword, use](const QString &keyPassword) {
            if (!self)
                return;
            self->withSecret(c, Secret::RegistrySecret, [saslPassword, keyPassword, use](const QString &registry) {
                use({saslPassword, keyPassword, registry});
            });
        });
    });
}

} // namespace md
