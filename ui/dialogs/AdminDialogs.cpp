#include "ui/dialogs/AdminDialogs.h"

#include "model/cluster/TopicAdminInput.h"
#include "model/tables/TopicConfigModel.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMap>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace md {

namespace {
QLabel *makeErrorLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(QStringLiteral("error"));
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setStyleSheet(QStringLiteral("color: #c01c28;"));
    return label;
}

QLabel *makeNote(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    return label;
}
} // namespace

// ---------------------------------------------------------------- create

CreateTopicDialog::CreateTopicDialog(int brokerCount, QWidget *parent)
    : QDialog(parent), m_brokerCount(brokerCount), m_name(new QLineEdit(this)), m_partitions(new QSpinBox(this)),
      m_replication(new QSpinBox(this)), m_configs(new QPlainTextEdit(this)), m_error(makeErrorLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("createTopicDialog"));
    setWindowTitle(tr("Create topic"));
    m_name->setObjectName(QStringLiteral("name"));
    m_name->setMaxLength(400); // longer than legal, so the dialog can say why it is too long
    m_name->setPlaceholderText(tr("letters, digits, '.', '_' and '-'; at most 249"));
    m_partitions->setObjectName(QStringLiteral("partitions"));
    m_partitions->setRange(1, 100000);
    m_partitions->setValue(1);
    m_replication->setObjectName(QStringLiteral("replicationFactor"));
    // 0 is shown as "broker default" and sent as -1 (default.replication.factor).
    m_replication->setRange(0, 32767);
    m_replication->setSpecialValueText(tr("broker default"));
    m_replication->setValue(brokerCount > 0 ? qMin(brokerCount, 3) : 0);
    if (brokerCount > 0)
        m_replication->setToolTip(
            tr("The cluster has %n broker(s); a topic cannot have more replicas.", nullptr, brokerCount));
    m_configs->setObjectName(QStringLiteral("configs"));
    m_configs->setPlaceholderText(tr("One key=value per line, e.g.\ncleanup.policy=compact\nretention.ms=86400000"));
    m_configs->setTabChangesFocus(true);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Create"));

    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Partitions:"), m_partitions);
    form->addRow(tr("&Replication factor:"), m_replication);
    form->addRow(tr("&Configs:"), m_configs);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &CreateTopicDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &CreateTopicDialog::reject);
    connect(m_name, &QLineEdit::textChanged, this, &CreateTopicDialog::updateState);
    connect(m_replication, &QSpinBox::valueChanged, this, &CreateTopicDialog::updateState);
    connect(m_configs, &QPlainTextEdit::textChanged, this, &CreateTopicDialog::updateState);
    updateState();
}

QString CreateTopicDialog::problem() const
{
    if (const QString p = topicNameProblem(m_name->text()); !p.isEmpty())
        return p;
    if (m_brokerCount > 0 && m_replication->value() > m_brokerCount)
        return tr("Replication factor %1 is more than the %n broker(s) of the cluster.", nullptr, m_brokerCount)
            .arg(m_replication->value());
    const ParsedConfigs parsed = parseConfigLines(m_configs->toPlainText());
    if (!parsed.problems.isEmpty())
        return tr("Configs: %1").arg(parsed.problems.join(QStringLiteral("; ")));
    return {};
}

void CreateTopicDialog::updateState()
{
    // The empty name is the starting state, not a mistake worth red text.
    const QString p = m_name->text().isEmpty() ? QString() : problem();
    m_error->setText(p);
    QString note;
    if (p.isEmpty() && topicNameHasMetricCollisionRisk(m_name->text()))
        note = tr("Note: Kafka's metrics treat '.' and '_' alike; this name may collide with a similar one.");
    m_error->setToolTip(note);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem().isEmpty());
}

QString CreateTopicDialog::errorText() const
{
    return m_error->text();
}

NewTopicSpec CreateTopicDialog::spec() const
{
    NewTopicSpec s;
    s.name = m_name->text();
    s.partitions = m_partitions->value();
    s.replicationFactor = m_replication->value() == 0 ? -1 : m_replication->value();
    s.configs = parseConfigLines(m_configs->toPlainText()).configs;
    return s;
}

void CreateTopicDialog::accept()
{
    const QString p = problem();
    if (!p.isEmpty()) {
        m_error->setText(p);
        return;
    }
    QDialog::accept();
}

// ---------------------------------------------------------------- delete

DeleteTopicDialog::DeleteTopicDialog(const QString &topic, qint64 messages, QWidget *parent)
    : QDialog(parent), m_topic(topic), m_confirm(new QLineEdit(this)), m_error(makeErrorLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("deleteTopicDialog"));
    setWindowTitle(tr("Delete topic"));
    const QString count =
        messages >= 0 ? tr("%1 message(s)").arg(QLocale().toString(messages)) : tr("all its messages");
    auto *note = makeNote(tr("Deleting topic \"%1\" removes it and %2 from the cluster for good. "
                             "Type the topic's name to confirm.")
                              .arg(topic, count),
                          this);
    m_confirm->setObjectName(QStringLiteral("confirm"));
    m_confirm->setPlaceholderText(topic);
    auto *ok = m_buttons->button(QDialogButtonBox::Ok);
    ok->setText(tr("Delete"));
    ok->setEnabled(false);
    m_buttons->button(QDialogButtonBox::Cancel)->setDefault(true);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(note);
    layout->addWidget(m_confirm);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &DeleteTopicDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &DeleteTopicDialog::reject);
    connect(m_confirm, &QLineEdit::textChanged, this, [this, ok] {
        ok->setEnabled(confirmed());
        m_error->clear();
    });
}

bool DeleteTopicDialog::confirmed() const
{
    // Exact match: topic names are case-sensitive, and "a.b" vs "a_b" are different topics.
    return m_confirm->text() == m_topic;
}

QString DeleteTopicDialog::errorText() const
{
    return m_error->text();
}

void DeleteTopicDialog::accept()
{
    if (!confirmed()) {
        m_error->setText(tr("The name typed does not match \"%1\"; nothing is deleted.").arg(m_topic));
        return;
    }
    QDialog::accept();
}

// ---------------------------------------------------------------- add partitions

AddPartitionsDialog::AddPartitionsDialog(const QString &topic, int current, QWidget *parent)
    : QDialog(parent), m_topic(topic), m_current(current), m_total(new QSpinBox(this)), m_why(nullptr)
{
    setObjectName(QStringLiteral("addPartitionsDialog"));
    setWindowTitle(tr("Add partitions"));
    m_total->setObjectName(QStringLiteral("total"));
    // Never below current + 1: Kafka cannot take partitions away.
    m_total->setRange(current + 1, qMax(current + 1, 100000));
    m_total->setValue(current + 1);
    m_why = makeNote(explanation(), this);
    m_why->setObjectName(QStringLiteral("explanation"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Add"));

    auto *form = new QFormLayout;
    form->addRow(tr("Topic:"), makeNote(topic, this));
    form->addRow(tr("Partitions now:"), makeNote(QString::number(current), this));
    form->addRow(tr("&New total:"), m_total);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_why);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &AddPartitionsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &AddPartitionsDialog::reject);
}

int AddPartitionsDialog::newTotal() const
{
    return m_total->value();
}

QString AddPartitionsDialog::explanation() const
{
    return tr("Kafka can only add partitions, never remove them: a partition's records would have nowhere "
              "to go, and producers place keyed records by the partition count. To have fewer partitions, "
              "create a new topic and copy the records into it. Adding partitions also moves new records "
              "of a key to a different partition than its older ones.");
}

// ---------------------------------------------------------------- edit configs

EditConfigsDialog::EditConfigsDialog(const QString &topic, const QList<ConfigEntry> &configs, QWidget *parent)
    : QDialog(parent), m_topic(topic), m_configs(configs), m_table(new QTableWidget(this)),
      m_error(makeErrorLabel(this))
{
    setObjectName(QStringLiteral("editConfigsDialog"));
    setWindowTitle(tr("Configs of %1").arg(topic));
    {
        // By name through a map, not std::sort (see TopicConfigModel::setConfigs).
        QMap<QString, ConfigEntry> byName;
        for (const ConfigEntry &e : configs)
            byName.insert(e.name, e);
        m_configs = QList<ConfigEntry>(byName.cbegin(), byName.cend());
    }
    m_table->setObjectName(QStringLiteral("configTable"));
    m_table->setColumnCount(ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("Config"), tr("Value"), tr("Source"), tr("Reset to default")});
    m_table->verticalHeader()->hide();
    m_table->setRowCount(int(m_configs.size()));
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                             QAbstractItemView::AnyKeyPressed);
    for (int row = 0; row < m_configs.size(); ++row) {
        const ConfigEntry &e = m_configs[row];
        auto *name = new QTableWidgetItem(e.name);
        name->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        auto *value = new QTableWidgetItem(TopicConfigModel::maskedValue(e));
        Qt::ItemFlags valueFlags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
        if (!e.readOnly)
            valueFlags |= Qt::ItemIsEditable;
        value->setFlags(valueFlags);
        if (e.readOnly)
            value->setToolTip(tr("Read-only: the broker does not allow changing it per topic"));
        auto *source = new QTableWidgetItem(configSourceName(e.source));
        source->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        auto *reset = new QTableWidgetItem;
        // Only a value set on the topic itself can be removed.
        if (e.source == ConfigSource::Dynamic && !e.readOnly) {
            reset->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
            reset->setCheckState(Qt::Unchecked);
        } else {
            reset->setFlags(Qt::ItemIsSelectable);
        }
        m_table->setItem(row, NameColumn, name);
        m_table->setItem(row, ValueColumn, value);
        m_table->setItem(row, SourceColumn, source);
        m_table->setItem(row, ResetColumn, reset);
    }
    m_table->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(ValueColumn, QHeaderView::Stretch);
    m_table->resizeRowsToContents();

    auto *note = makeNote(tr("Edit a value to set it on this topic; tick \"Reset to default\" to remove the "
                             "topic's own value so the broker's applies again."),
                          this);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Apply"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(note);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &EditConfigsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &EditConfigsDialog::reject);
    connect(m_table, &QTableWidget::itemChanged, m_error, &QLabel::clear);
    resize(720, 520);
}

int EditConfigsDialog::rowOf(const QString &name) const
{
    for (int row = 0; row < m_configs.size(); ++row)
        if (m_configs[row].name == name)
            return row;
    return -1;
}

bool EditConfigsDialog::setValue(const QString &name, const QString &value)
{
    const int row = rowOf(name);
    if (row < 0 || !(m_table->item(row, ValueColumn)->flags() & Qt::ItemIsEditable))
        return false;
    m_table->item(row, ValueColumn)->setText(value);
    return true;
}

bool EditConfigsDialog::setReset(const QString &name, bool reset)
{
    const int row = rowOf(name);
    if (row < 0 || !(m_table->item(row, ResetColumn)->flags() & Qt::ItemIsUserCheckable))
        return false;
    m_table->item(row, ResetColumn)->setCheckState(reset ? Qt::Checked : Qt::Unchecked);
    return true;
}

QMap<QString, std::optional<QString>> EditConfigsDialog::changes() const
{
    QMap<QString, std::optional<QString>> out;
    for (int row = 0; row < m_configs.size(); ++row) {
        const ConfigEntry &e = m_configs[row];
        const QTableWidgetItem *reset = m_table->item(row, ResetColumn);
        if ((reset->flags() & Qt::ItemIsUserCheckable) && reset->checkState() == Qt::Checked) {
            out.insert(e.name, std::nullopt);
            continue;
        }
        const QString text = m_table->item(row, ValueColumn)->text();
        if (text != TopicConfigModel::maskedValue(e))
            out.insert(e.name, text);
    }
    return out;
}

void EditConfigsDialog::accept()
{
    if (changes().isEmpty()) {
        m_error->setText(tr("Nothing changed: edit a value or tick \"Reset to default\"."));
        return;
    }
    QDialog::accept();
}

} // namespace md
