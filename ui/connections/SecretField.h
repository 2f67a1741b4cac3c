#pragma once

#include "ui/job/JobDocument.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLineEdit;

namespace md {

// One password of a profile (sasl.password, ssl.keyPassword) and where it is
// kept: the system keychain (the profile holds "${keychain:KEY}", the typed
// value waits in memory until the document is saved), an environment
// variable ("${env:NAME}"), or, with a warning, clear text in the file.
class SecretField final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SecretField)
public:
    enum class Mode { Keychain, Environment, ClearText };

    SecretField(const QString &keyPath, QWidget *parent = nullptr);

    // What the file says (a reference or clear text).
    void setProfileValue(const QString &value);
    // What the file should say now.
    QString profileValue() const;
    // A typed password that still has to go to the keychain.
    std::optional<PendingSecret> pending() const;

    Mode mode() const;
    void setMode(Mode mode);
    // For a field with nothing in it yet: where a password typed now goes.
    void setDefaultMode(Mode mode);
    QLineEdit *lineEdit() const { return m_edit; }
    QComboBox *modeBox() const { return m_mode; }

    // Used when the keychain is unavailable at save time.
    void pendingToEnvironment(const QString &variableName);
    void pendingToClearText();
    // The pending value is in the keychain now.
    void stored();

Q_SIGNALS:
    void changed();

private:
    void modeChanged();
    void updatePlaceholder();

    QString m_keyPath;
    QString m_keychainKey;    // the key this field writes (kept from a loaded reference)
    bool m_hasStored = false; // the keychain already holds a value for m_keychainKey
    QComboBox *m_mode;
    QLineEdit *m_edit;
    Mode m_lastMode = Mode::Keychain;
};

} // namespace md
