#include "ui/dialogs/CopyMessagesDialog.h"

#include "ui/widgets/Background.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace md {

namespace {
QString clusterLabel(const ClusterConfig &c)
{
    return c.alias.isEmpty() ? c.bootstrap : c.alias + QStringLiteral(" (") + c.bootstrap + QLatin1Char(')');
}
} // namespace

CopyMessagesDialog::CopyMessagesDialog(const CopySpec &base, const QStringList &targetTopics, QWidget *parent)
    : QDialog(parent), m_base(base), m_target(new QComboBox(this)), m_progress(new QProgressBar(this)),
      m_result(new QLabel(this)), m_schemaWarning(new QLabel(this)), m_start(new QPushButton(tr("Copy"), this)),
      m_close(new QPushButton(tr("Close"), this))
{
    setWindowTitle(tr("Copy to the other cluster"));
    const bool range = base.messages.isEmpty();
    auto *what = new QLabel(this);
    what->setWordWrap(true);
    what->setTextFormat(Qt::PlainText);
    if (range)
        what->setText(tr("Copy offsets of %1 partition %2 to a topic on %3. Keys, values, headers and timestamps are "
                         "kept; records go to the same partition when the target topic has it.")
                          .arg(base.sourceTopic)
                          .arg(base.sourcePartition)
                          .arg(clusterLabel(base.target)));
    else
        what->setText(tr("Copy %n selected message(s) to a topic on %1. Keys, values, headers and timestamps are kept; "
                         "records go to the same partition when the target topic has it.",
                         nullptr, int(base.messages.size()))
                          .arg(clusterLabel(base.target)));

    m_target->setEditable(true);
    m_target->addItems(targetTopics);
    m_target->setCurrentText(base.targetTopic);
    m_target->setObjectName(QStringLiteral("targetTopic"));
    auto *form = new QFormLayout;
    form->addRow(tr("Target topic"), m_target);
    if (range) {
        m_first = new QLineEdit(QString::number(base.firstOffset), this);
        m_last = new QLineEdit(base.lastOffset >= 0 ? QString::number(base.lastOffset) : QString(), this);
        m_last->setPlaceholderText(tr("end of the partition"));
        form->addRow(tr("First offset"), m_first);
        form->addRow(tr("Last offset"), m_last);
    }
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v of %m"));
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::PlainText);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setObjectName(QStringLiteral("copyResult"));

    m_schemaWarning->setObjectName(QStringLiteral("schemaWarning"));
    m_schemaWarning->setWordWrap(true);
    m_schemaWarning->setTextFormat(Qt::PlainText);
    m_schemaWarning->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_schemaWarning->setStyleSheet(QStringLiteral("color: #9c5d00;"));
    m_schemaWarning->hide();

    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_start, QDialogButtonBox::AcceptRole);
    buttons->addButton(m_close, QDialogButtonBox::RejectRole);
    m_start->setDefault(true);
    connect(m_start, &QPushButton::clicked, this, [this] { start(); });
    connect(m_close, &QPushButton::clicked, this, &CopyMessagesDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(what);
    layout->addLayout(form);
    layout->addWidget(m_progress);
    layout->addWidget(m_schemaWarning);
    layout->addWidget(m_result);
    layout->addWidget(buttons);
    resize(480, sizeHint().height());
    fitHeight();
}

void CopyMessagesDialog::fitHeight()
{
    // Wrapped labels need the height for this width, which sizeHint() does not give.
    QLayout *l = layout();
    const int needed = l->hasHeightForWidth() ? l->totalHeightForWidth(width()) : l->totalSizeHint().height();
    if (needed > height())
        resize(width(), needed);
}

CopyMessagesDialog::~CopyMessagesDialog() = default; // the job (a child) cancels; nothing waits

void CopyMessagesDialog::setTargetTopic(const QString &topic)
{
    m_target->setCurrentText(topic);
}

void CopyMessagesDialog::setRange(qint64 first, qint64 last)
{
    if (m_first)
        m_first->setText(QString::number(first));
    if (m_last)
        m_last->setText(last >= 0 ? QString::number(last) : QString());
}

bool CopyMessagesDialog::isRunning() const
{
    return m_job && m_job->isRunning();
}

QString CopyMessagesDialog::resultText() const
{
    return m_result->text();
}

QString CopyMessagesDialog::schemaWarningText() const
{
    return m_schemaWarning->isHidden() ? QString() : m_schemaWarning->text();
}

QString CopyMessagesDialog::startButtonText() const
{
    return m_start->text();
}

bool CopyMessagesDialog::start()
{
    if (isRunning() || m_checkingSchemas)
        return false;
    auto refuse = [this](const QString &why) {
        m_result->setStyleSheet(QStringLiteral("color: #c01c28;"));
        m_result->setText(why);
        return false;
    };
    CopySpec spec = m_base;
    spec.targetTopic = m_target->currentText().trimmed();
    if (spec.targetTopic.isEmpty())
        return refuse(tr("Choose the target topic"));
    if (spec.target.bootstrap.isEmpty())
        return refuse(tr("The other cluster is not connected"));
    if (m_first) {
        bool ok = false;
        spec.firstOffset = m_first->text().trimmed().toLongLong(&ok);
        if (!ok || spec.firstOffset < 0)
            return refuse(tr("First offset: \"%1\" is not an offset (a whole number, 0 or more)").arg(m_first->text()));
        const QString last = m_last->text().trimmed();
        spec.lastOffset = -1;
        if (!last.isEmpty()) {
            spec.lastOffset = last.toLongLong(&ok);
            if (!ok || spec.lastOffset < 0)
                return refuse(tr("Last offset: \"%1\" is not an offset (a whole number, 0 or more)").arg(last));
            if (spec.lastOffset < spec.firstOffset)
                return refuse(
                    tr("The last offset (%1) is before the first (%2)").arg(spec.lastOffset).arg(spec.firstOffset));
        }
    }
    if (!m_schemasChecked) {
        const QList<int> ids = wireSchemaIds(spec.messages);
        if (!ids.isEmpty() && spec.source.schemaRegistry.isSet()) {
            m_checkingSchemas = true;
            m_start->setEnabled(false);
            m_target->setEnabled(false);
            m_result->setStyleSheet({});
            QStringList names;
            for (int id : ids)
                names << QString::number(id);
            m_result->setText(
                tr("Checking schema ids %1 on both clusters' registries\u2026").arg(names.join(QStringLiteral(", "))));
            inBackground<CopySchemaCheck>(
                this,
                [ids, source = spec.source.schemaRegistry, target = spec.target.schemaRegistry] {
                    return checkCopySchemaIds(ids, source, target);
                },
                [this, spec](const CopySchemaCheck &check) { onSchemaCheck(spec, check); });
            return true;
        }
        m_schemasChecked = true;
    }
    startCopy(spec);
    return true;
}

void CopyMessagesDialog::showSchemaCheck()
{
    QString text = m_schemaCheck.text();
    if (m_schemaCheck.warn())
        text = tr("The records keep their schema ids, and the other cluster's registry does not have all of them as "
                  "they are:\n%1")
                   .arg(text);
    if (m_rangeChecking) {
        QStringList ids;
        for (int id : m_schemaCheck.ids)
            ids << QString::number(id);
        text += (text.isEmpty() ? QString() : QStringLiteral("\n")) +
                tr("Checking schema ids %1 of the records read on both clusters' registries\u2026")
                    .arg(ids.join(QStringLiteral(", ")));
    }
    m_schemaWarning->setText(text);
    m_schemaWarning->setVisible(!text.isEmpty());
    fitHeight();
}

void CopyMessagesDialog::onSchemaCheck(const CopySpec &spec, const CopySchemaCheck &check)
{
    m_checkingSchemas = false;
    m_schemasChecked = true;
    m_schemaCheck = check;
    m_start->setEnabled(true);
    m_target->setEnabled(true);
    showSchemaCheck();
    if (check.warn()) {
        m_result->setStyleSheet({});
        m_result->setText(tr("Copy anyway, or Close to leave the records where they are."));
        m_start->setText(tr("Copy anyway"));
        Q_EMIT schemaCheckFinished();
        return;
    }
    Q_EMIT schemaCheckFinished();
    startCopy(spec);
}

void CopyMessagesDialog::startCopy(const CopySpec &spec)
{
    delete m_job;
    m_job = new MessageCopyJob(spec, this);
    connect(m_job, &MessageCopyJob::progress, this, &CopyMessagesDialog::onProgress);
    connect(m_job, &MessageCopyJob::schemaIdsSeen, this, &CopyMessagesDialog::onRangeSchemaIds);
    connect(m_job, &MessageCopyJob::finished, this, &CopyMessagesDialog::onFinished);
    if (spec.messages.isEmpty()) {
        // A range is read afresh: what the last copy found says nothing of this one.
        ++m_copyGeneration;
        m_rangePending.clear();
        m_rangeChecking = false;
        m_schemaCheck = {};
        m_schemaWarning->hide();
    }
    m_result->setStyleSheet({});
    m_result->setText(tr("Copying to %1\u2026").arg(spec.targetTopic));
    m_progress->setRange(0, 0); // busy until the first progress report
    m_start->setEnabled(false);
    m_target->setEnabled(false);
    m_close->setText(tr("Cancel"));
    m_job->start();
}

void CopyMessagesDialog::onRangeSchemaIds(const QList<int> &ids)
{
    // Without a registry on this side the bytes only look like the wire format.
    if (!m_job || !m_job->spec().source.schemaRegistry.isSet())
        return;
    for (int id : ids) {
        if (!m_schemaCheck.ids.contains(id) && !m_rangePending.contains(id))
            m_rangePending.append(id);
    }
    checkRangeSchemaIds();
}

void CopyMessagesDialog::checkRangeSchemaIds()
{
    if (m_rangeChecking || m_rangePending.isEmpty() || !m_job)
        return;
    m_rangeChecking = true;
    QList<int> ids;
    ids.swap(m_rangePending);
    std::sort(ids.begin(), ids.end());
    // Counted as looked up now: ids read again meanwhile are not queued twice.
    m_schemaCheck.ids += ids;
    std::sort(m_schemaCheck.ids.begin(), m_schemaCheck.ids.end());
    showSchemaCheck();
    const int generation = m_copyGeneration;
    inBackground<CopySchemaCheck>(
        this,
        [ids, source = m_job->spec().source.schemaRegistry, target = m_job->spec().target.schemaRegistry] {
            return checkCopySchemaIds(ids, source, target);
        },
        [this, generation](const CopySchemaCheck &check) {
            if (generation != m_copyGeneration)
                return;
            m_rangeChecking = false;
            m_schemaCheck.problems += check.problems;
            m_schemaCheck.notes += check.notes;
            showSchemaCheck();
            checkRangeSchemaIds();
            Q_EMIT schemaCheckFinished();
        });
}

void CopyMessagesDialog::cancel()
{
    if (!isRunning())
        return;
    // Before the first record is written the job answers at once (onFinished runs before cancel() returns).
    m_job->cancel();
    if (isRunning())
        m_result->setText(tr("Cancelling\u2026"));
}

void CopyMessagesDialog::reject()
{
    if (isRunning()) {
        cancel();
        return; // closes with the Close button once the job has stopped
    }
    QDialog::reject();
}

void CopyMessagesDialog::onProgress(qint64 done, qint64 total)
{
    // QProgressBar is int-based: scale large copies to per-mille.
    if (total > 1'000'000) {
        m_progress->setRange(0, 1000);
        m_progress->setFormat(tr("%1 of %2").arg(done).arg(total));
        m_progress->setValue(int(done * 1000 / total));
        return;
    }
    m_progress->setRange(0, int(qMax<qint64>(total, 1)));
    m_progress->setValue(int(qMin(done, total)));
}

void CopyMessagesDialog::onFinished(const CopyResult &result)
{
    onRangeSchemaIds(result.schemaIds); // those the last progress did not bring (none, normally)
    onProgress(result.copied, result.requested);
    m_result->setStyleSheet(result.error.isEmpty() ? QString() : QStringLiteral("color: #c01c28;"));
    m_result->setText(result.summary(m_job->spec()));
    m_start->setEnabled(true);
    m_start->setText(tr("Copy again"));
    m_target->setEnabled(true);
    m_close->setText(tr("Close"));
    Q_EMIT copyFinished(result);
}

} // namespace md
