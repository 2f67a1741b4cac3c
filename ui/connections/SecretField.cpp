#include "ui/connections/SecretField.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QRandomGenerator>
#include <QSignalBlocker>

namespace md {

SecretField::SecretField(const QString &keyPath, QWidget *parent)
    : QWidget(parent), m_keyPath(keyPath), m_mode(new QComboBox(this)), m_edit(new QLineEdit(this))
{
    setObjectName(keyPath);
    m_mode->setObjectName(keyPath + QStringLiteral(".mode"));
    m_edit->setObjectName(keyPath + QStringLiteral(".value"));
    m_mode->addItem(tr("System keychain"));
    m_mode->addItem(tr("Environment variable"));
    m_mode->addItem(tr("In the file (clear text)"));
    // A fresh key per field: two jobs never overwrite each other's password.
    m_keychainKey =
        QStringLiteral("job/%1/%2").arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0')).arg(keyPath);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_mode);
    layout->addWidget(m_edit, 1);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &SecretField::modeChanged);
    connect(m_edit, &QLineEdit::textChanged, this, &SecretField::changed);
    modeChanged();
}

SecretField::Mode SecretField::mode() const
{
    return Mode(m_mode->currentIndex());
}

void SecretField::setMode(Mode mode)
{
    m_mode->setCurrentIndex(int(mode));
}

void SecretField::setDefaultMode(Mode mode)
{
    if (m_edit->text().isEmpty() && !m_hasStored)
        setMode(mode);
}

void SecretField::setProfileValue(const QString &value)
{
    const QSignalBlocker blockMode(m_mode);
    const QSignalBlocker blockEdit(m_edit);
    m_hasStored = false;
    const std::optional<SecretRef> ref = SecretRef::whole(value);
    if (ref && ref->kind == QLatin1String("keychain")) {
        m_keychainKey = ref->arg;
        m_hasStored = true;
        m_mode->setCurrentIndex(int(Mode::Keychain));
        m_edit->clear();
    } else if (ref && ref->kind == QLatin1String("env")) {
        m_mode->setCurrentIndex(int(Mode::Environment));
        m_edit->setText(ref->arg);
    } else if (value.isEmpty()) {
        m_mode->setCurrentIndex(int(Mode::Keychain));
        m_edit->clear();
    } else {
        // Clear text, or some other reference written by hand: kept as written.
        m_mode->setCurrentIndex(int(Mode::ClearText));
        m_edit->setText(value);
    }
    m_lastMode = mode();
    modeChanged();
}

QString SecretField::profileValue() const
{
    const QString text = m_edit->text();
    switch (mode()) {
    case Mode::Keychain:
        return text.isEmpty() && !m_hasStored ? QString()
                                              : SecretRef{QStringLiteral("keychain"), m_keychainKey}.toString();
    case Mode::Environment:
        return text.trimmed().isEmpty() ? QString() : SecretRef{QStringLiteral("env"), text.trimmed()}.toString();
    case Mode::ClearText: return text;
    }
    return {};
}

std::optional<PendingSecret> SecretField::pending() const
{
    if (mode() != Mode::Keychain || m_edit->text().isEmpty())
        return std::nullopt;
    return PendingSecret{m_keyPath, m_keychainKey, m_edit->text()};
}

void SecretField::pendingToEnvironment(const QString &variableName)
{
    if (!pending())
        return;
    m_edit->clear();
    setMode(Mode::Environment);
    m_edit->setText(variableName);
}

void SecretField::pendingToClearText()
{
    if (!pending())
        return;
    const QString value = m_edit->text();
    setMode(Mode::ClearText);
    m_edit->setText(value);
}

void SecretField::stored()
{
    if (!pending())
        return;
    m_hasStored = true;
    const QSignalBlocker block(m_edit);
    m_edit->clear();
    updatePlaceholder();
    Q_EMIT changed();
}

void SecretField::modeChanged()
{
    const Mode now = mode();
    // A password never turns into a variable name on screen, nor the other way round.
    if ((now == Mode::Environment) != (m_lastMode == Mode::Environment)) {
        const QSignalBlocker block(m_edit);
        m_edit->clear();
    }
    m_lastMode = now;
    m_edit->setEchoMode(now == Mode::Environment ? QLineEdit::Normal : QLineEdit::Password);
    updatePlaceholder();
    Q_EMIT changed();
}

void SecretField::updatePlaceholder()
{
    switch (mode()) {
    case Mode::Keychain:
        m_edit->setPlaceholderText(m_hasStored ? tr("stored in the keychain (type to replace)") : tr("password"));
        m_edit->setToolTip(
            tr("Saved in the system keychain as \"%1\"; the profile holds a reference.").arg(m_keychainKey));
        break;
    case Mode::Environment:
        m_edit->setPlaceholderText(tr("variable name, e.g. KAFKA_PASSWORD"));
        m_edit->setToolTip(tr("The profile holds ${env:NAME}; the password is read from the environment at run time."));
        break;
    case Mode::ClearText:
        m_edit->setPlaceholderText(tr("password (saved in clear, file readable by you only)"));
        m_edit->setToolTip(tr("Not recommended: the password is written into the profile in clear text."));
        break;
    }
}

} // namespace md
