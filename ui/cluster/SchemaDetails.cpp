#include "ui/cluster/SchemaDetails.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace md {

namespace {
constexpr int SubjectRole = Qt::UserRole;
constexpr int VersionRole = Qt::UserRole + 1;

QLabel *valueLabel(QWidget *parent, const QString &objectName)
{
    auto *l = new QLabel(parent);
    l->setObjectName(objectName);
    l->setTextFormat(Qt::PlainText);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}
} // namespace

SchemaDetails::SchemaDetails(QWidget *parent)
    : QWidget(parent), m_title(new QLabel(this)), m_versionBox(new QComboBox(this)),
      m_id(valueLabel(this, QStringLiteral("schemaId"))), m_type(valueLabel(this, QStringLiteral("schemaType"))),
      m_compatibility(valueLabel(this, QStringLiteral("schemaCompatibility"))),
      m_topic(valueLabel(this, QStringLiteral("schemaTopic"))), m_referencesNone(new QLabel(tr("none"), this)),
      m_references(new QListWidget(this)), m_text(new QPlainTextEdit(this)), m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("schemaDetails"));
    m_title->setObjectName(QStringLiteral("schemaSubject"));
    m_title->setTextFormat(Qt::PlainText);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_status->setObjectName(QStringLiteral("schemaDetailStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->hide();
    m_versionBox->setObjectName(QStringLiteral("schemaVersion"));
    m_versionBox->setToolTip(tr("Show another version of this subject"));
    m_versionBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_versionBox->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed); // a number, not a field
    m_topic->setWordWrap(true);

    m_references->setObjectName(QStringLiteral("schemaReferences"));
    m_references->setToolTip(tr("Click a reference to open the subject it names"));
    m_references->setSelectionMode(QAbstractItemView::NoSelection);
    // A few lines at most: the schema text below gets the height.
    const int line = fontMetrics().lineSpacing();
    m_references->setMaximumHeight(4 * line + 8);
    m_references->hide();
    auto *refs = new QWidget(this);
    auto *refsLayout = new QVBoxLayout(refs);
    refsLayout->setContentsMargins(0, 0, 0, 0);
    refsLayout->addWidget(m_referencesNone);
    refsLayout->addWidget(m_references);

    m_text->setObjectName(QStringLiteral("schemaText"));
    m_text->setReadOnly(true);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setPlaceholderText(tr("Select a subject to see its schema"));
    m_text->setMinimumHeight(6 * line);

    auto *form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Version:"), m_versionBox);
    form->addRow(tr("Id:"), m_id);
    form->addRow(tr("Type:"), m_type);
    form->addRow(tr("Compatibility:"), m_compatibility);
    form->addRow(tr("Topic:"), m_topic);
    form->addRow(tr("References:"), refs);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_status);
    layout->addLayout(form);
    layout->addWidget(m_text, 1);

    connect(m_versionBox, &QComboBox::activated, this, [this](int index) {
        const int v = m_versionBox->itemData(index).toInt();
        if (!m_subject.isEmpty() && v != m_version)
            Q_EMIT versionPicked(m_subject, v);
    });
    connect(m_references, &QListWidget::itemClicked, this, [this](QListWidgetItem *item) {
        Q_EMIT referenceActivated(item->data(SubjectRole).toString(), item->data(VersionRole).toInt());
    });
    clear();
}

void SchemaDetails::clear()
{
    m_subject.clear();
    m_version = 0;
    m_title->setText(tr("No subject selected"));
    m_versionBox->clear();
    m_versionBox->setEnabled(false);
    for (QLabel *l : {m_id, m_type, m_compatibility, m_topic})
        l->clear();
    m_references->clear();
    m_references->hide();
    m_referencesNone->show();
    m_text->clear();
    m_text->setEnabled(true);
    setStatus({}, false);
}

void SchemaDetails::showLoading(const QString &subject, int version)
{
    if (subject != m_subject) {
        clear();
        m_title->setText(subject);
    }
    m_text->setEnabled(false);
    setStatus(version > 0 ? tr("Loading version %1\u2026").arg(version) : tr("Loading the latest version\u2026"),
              false);
}

void SchemaDetails::showDetail(const SubjectVersionDetail &d, const QString &topicText)
{
    m_subject = d.subject;
    m_version = d.schema.version;
    m_title->setText(d.subject);
    {
        const QSignalBlocker block(m_versionBox);
        m_versionBox->clear();
        QList<int> versions = d.versions;
        std::sort(versions.begin(), versions.end(), std::greater<>());
        for (int v : versions)
            m_versionBox->addItem(v == versions.first() ? tr("%1 (latest)").arg(v) : QString::number(v), v);
        m_versionBox->setCurrentIndex(m_versionBox->findData(m_version));
        m_versionBox->setEnabled(versions.size() > 1);
    }
    m_id->setText(QString::number(d.schema.id));
    m_type->setText(d.schema.type);
    m_compatibility->setText(d.ownCompatibility ? d.compatibility : tr("%1 (global)").arg(d.compatibility));
    m_topic->setText(topicText.isEmpty() ? tr("none by name (not <topic>-key or <topic>-value)") : topicText);
    m_references->clear();
    for (const SchemaReference &r : d.schema.references) {
        auto *item = new QListWidgetItem(tr("%1 \u2192 %2 v%3").arg(r.name, r.subject).arg(r.version), m_references);
        item->setData(SubjectRole, r.subject);
        item->setData(VersionRole, r.version);
        item->setToolTip(tr("Open %1 version %2").arg(r.subject).arg(r.version));
    }
    m_references->setVisible(!d.schema.references.isEmpty());
    m_referencesNone->setVisible(d.schema.references.isEmpty());
    m_text->setPlainText(prettySchemaText(d.schema.type, d.schema.text));
    m_text->setEnabled(true);
    setStatus({}, false);
}

void SchemaDetails::showError(const QString &subject, const QString &message)
{
    if (subject != m_subject) {
        clear();
        m_title->setText(subject);
    }
    m_text->setEnabled(true);
    setStatus(message, true);
}

QString SchemaDetails::statusText() const
{
    return m_status->isHidden() ? QString() : m_status->text();
}

void SchemaDetails::setStatus(const QString &text, bool error)
{
    m_status->setStyleSheet(error ? QStringLiteral("color: #c01c28;") : QString());
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

} // namespace md
