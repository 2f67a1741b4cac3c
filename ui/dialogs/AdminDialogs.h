#pragma once

#include "engine/admin/AdminService.h"

#include <QDialog>

#include <optional>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QTableWidget;

namespace md {

// The topic administration dialogs. Each checks its input before it accepts
// (and says what is wrong, where), then hands back what to ask Kafka; the
// request itself is the caller's (ClusterPane sends it through AdminClient).

class CreateTopicDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CreateTopicDialog)
public:
    // brokerCount bounds the replication factor (0: unknown, no bound).
    explicit CreateTopicDialog(int brokerCount, QWidget *parent = nullptr);

    NewTopicSpec spec() const; // valid after accept
    QString problem() const;   // empty when the input is valid

    // For tests and callers that prefill.
    QLineEdit *nameEdit() const { return m_name; }
    QSpinBox *partitionsBox() const { return m_partitions; }
    QSpinBox *replicationBox() const { return m_replication; }
    QPlainTextEdit *configsEdit() const { return m_configs; }
    QString errorText() const;

    void accept() override;

private:
    void updateState();

    int m_brokerCount;
    QLineEdit *m_name;
    QSpinBox *m_partitions;
    QSpinBox *m_replication;
    QPlainTextEdit *m_configs;
    QLabel *m_error;
    QDialogButtonBox *m_buttons;
};

// Delete only after the user typed the topic's name.
class DeleteTopicDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DeleteTopicDialog)
public:
    DeleteTopicDialog(const QString &topic, qint64 messages, QWidget *parent = nullptr);

    QString topic() const { return m_topic; }
    QLineEdit *confirmEdit() const { return m_confirm; }
    bool confirmed() const;
    QString errorText() const;

    void accept() override;

private:
    QString m_topic;
    QLineEdit *m_confirm;
    QLabel *m_error;
    QDialogButtonBox *m_buttons;
};

// Kafka only adds partitions; the dialog starts at current + 1 and says why.
class AddPartitionsDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AddPartitionsDialog)
public:
    AddPartitionsDialog(const QString &topic, int current, QWidget *parent = nullptr);

    QString topic() const { return m_topic; }
    int current() const { return m_current; }
    int newTotal() const;
    QSpinBox *totalBox() const { return m_total; }
    QString explanation() const;

private:
    QString m_topic;
    int m_current;
    QSpinBox *m_total;
    QLabel *m_why;
};

// Every config of a topic with its value and source; values can be changed
// (set on the topic) or reset to the default (the topic's override removed).
class EditConfigsDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EditConfigsDialog)
public:
    enum Column { NameColumn, ValueColumn, SourceColumn, ResetColumn, ColumnCount };

    EditConfigsDialog(const QString &topic, const QList<ConfigEntry> &configs, QWidget *parent = nullptr);

    QString topic() const { return m_topic; }
    // What to send: new values, and nullopt for configs to reset.
    QMap<QString, std::optional<QString>> changes() const;
    QTableWidget *table() const { return m_table; }
    int rowOf(const QString &name) const;
    // Test and scripting helpers acting on the table's widgets.
    bool setValue(const QString &name, const QString &value);
    bool setReset(const QString &name, bool reset);

    void accept() override;

private:
    QString m_topic;
    QList<ConfigEntry> m_configs; // in table order
    QTableWidget *m_table;
    QLabel *m_error;
};

} // namespace md
