#include "ui/dialogs/VerifyDialog.h"

#include "engine/verify/VerifyJob.h"
#include "model/tables/MessageTableModel.h"
#include "model/tables/VerifyTableModel.h"
#include "ui/job/JobEditorDialog.h"
#include "ui/widgets/Background.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace md {

namespace {

const QString kErrorStyle = QStringLiteral("color: #b00020;");

QString side(const ClusterConfig &c)
{
    return (c.alias.isEmpty() ? QString() : c.alias + QLatin1Char(' ')) + QLatin1Char('(') + c.bootstrap +
           QLatin1Char(')');
}

QString offsetText(qint64 offset)
{
    return offset >= 0 ? QLocale(QLocale::English).toString(offset) : QStringLiteral("-");
}

QString recordText(const std::optional<KafkaMessage> &record, qint64 offset, const QString &error)
{
    if (!error.isEmpty())
        return VerifyDialog::tr("cannot read: %1").arg(error);
    if (record)
        return MessageTableModel::describe(*record, MessageTableModel::DisplayMode::Text);
    return offset >= 0 ? VerifyDialog::tr("missing: no record at offset %1").arg(offset)
                       : VerifyDialog::tr("missing: this side has no record here");
}

} // namespace

VerifyDialog::VerifyDialog(const MirrorJobSpec &spec, QWidget *parent)
    : QDialog(parent), m_spec(spec), m_topics(new QLineEdit(this)), m_start(new QPushButton(tr("&Start"), this)),
      m_cancel(new QPushButton(tr("&Cancel"), this)), m_busyBar(new QProgressBar(this)), m_status(new QLabel(this)),
      m_model(new VerifyTableModel(this)), m_proxy(new QSortFilterProxyModel(this)), m_table(new QTableView(this)),
      m_summary(new QLabel(this)), m_difference(new QLabel(this)), m_sourceTitle(new QLabel(this)),
      m_targetTitle(new QLabel(this)), m_sourceRecord(new QPlainTextEdit(this)),
      m_targetRecord(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("verifyDialog"));
    setWindowTitle(tr("Verify \u2014 %1").arg(spec.name));
    setModal(false);

    auto *intro = new QLabel(this);
    intro->setObjectName(QStringLiteral("verifyIntro"));
    intro->setWordWrap(true);
    intro->setTextInteractionFlags(Qt::TextSelectableByMouse);
    intro->setText(tr("Compares every partition the job mirrors, record by record (key, value, headers, "
                      "timestamp), from the source %1 with the target %2. Nothing is written. Verify a job that "
                      "is caught up or stopped: records still on their way show up as missing.")
                       .arg(side(spec.source).toHtmlEscaped(), side(spec.target).toHtmlEscaped()));

    m_topics->setObjectName(QStringLiteral("verifyTopics"));
    m_topics->setPlaceholderText(tr("every topic of the job"));
    m_topics->setToolTip(tr("A regular expression matched against whole source topic names"));
    m_topics->setClearButtonEnabled(true);
    auto *form = new QFormLayout;
    form->addRow(tr("&Topics:"), m_topics);

    m_start->setObjectName(QStringLiteral("startVerify"));
    m_start->setAutoDefault(true);
    m_start->setDefault(true);
    m_cancel->setObjectName(QStringLiteral("cancelVerify"));
    m_cancel->setAutoDefault(false);
    m_busyBar->setObjectName(QStringLiteral("verifyBusy"));
    m_busyBar->setRange(0, 0);
    m_busyBar->setMaximumHeight(m_start->sizeHint().height() / 2);
    m_busyBar->setMaximumWidth(160);
    m_busyBar->setTextVisible(false);
    m_busyBar->hide();
    m_status->setObjectName(QStringLiteral("verifyStatus"));
    m_status->setWordWrap(true);
    auto *runRow = new QHBoxLayout;
    runRow->addWidget(m_start);
    runRow->addWidget(m_cancel);
    runRow->addWidget(m_busyBar);
    runRow->addWidget(m_status, 1);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(VerifyTableModel::SortRole);
    m_table->setObjectName(QStringLiteral("verifyTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // the run's order until a header is clicked
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    const int em = m_table->fontMetrics().horizontalAdvance(QLatin1Char('M'));
    // Fixed widths (counts grow while a run goes, columns should not jump), never narrower than the header.
    auto setWidth = [this](int column, int width) {
        m_table->setColumnWidth(column, std::max(width, m_table->horizontalHeader()->sectionSizeHint(column)));
    };
    setWidth(VerifyTableModel::TopicColumn, 18 * em);
    for (int c = VerifyTableModel::PartitionColumn; c < VerifyTableModel::DifferenceColumn; ++c)
        setWidth(c, 6 * em);
    setWidth(VerifyTableModel::StatusColumn, 11 * em);

    m_summary->setObjectName(QStringLiteral("verifySummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // The first difference of the selected partition: both records side by side.
    auto *diffPane = new QWidget(this);
    auto *grid = new QGridLayout(diffPane);
    grid->setContentsMargins(0, 0, 0, 0);
    m_difference->setObjectName(QStringLiteral("verifyDifference"));
    m_difference->setWordWrap(true);
    m_difference->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_sourceTitle->setObjectName(QStringLiteral("verifySourceTitle"));
    m_targetTitle->setObjectName(QStringLiteral("verifyTargetTitle"));
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (QPlainTextEdit *edit : {m_sourceRecord, m_targetRecord}) {
        edit->setReadOnly(true);
        edit->setFont(fixed);
        edit->setLineWrapMode(QPlainTextEdit::WidgetWidth);
        edit->setMinimumHeight(5 * edit->fontMetrics().height());
    }
    m_sourceRecord->setObjectName(QStringLiteral("verifySourceRecord"));
    m_targetRecord->setObjectName(QStringLiteral("verifyTargetRecord"));
    grid->addWidget(m_difference, 0, 0, 1, 2);
    grid->addWidget(m_sourceTitle, 1, 0);
    grid->addWidget(m_targetTitle, 1, 1);
    grid->addWidget(m_sourceRecord, 2, 0);
    grid->addWidget(m_targetRecord, 2, 1);
    grid->setRowStretch(2, 1);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("verifySplitter"));
    split->setChildrenCollapsible(false);
    split->addWidget(m_table);
    split->addWidget(diffPane);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->button(QDialogButtonBox::Close)->setAutoDefault(false);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addLayout(runRow);
    layout->addWidget(split, 1);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);

    connect(m_start, &QPushButton::clicked, this, &VerifyDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &VerifyDialog::cancel);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &VerifyDialog::selectionChanged);
    // A verdict arriving for the selected row shows its difference at once.
    connect(m_model, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &from, const QModelIndex &to) {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        if (rows.size() == 1 && from.column() == 0 && to.column() == VerifyTableModel::ColumnCount - 1) {
            const int row = m_proxy->mapToSource(rows.first()).row();
            if (row >= from.row() && row <= to.row())
                showDifference(row);
        }
    });

    m_status->setText(tr("Start compares the job's partitions; nothing is written."));
    showDifference(-1);
    updateButtons();
    // Sized to the content, within the screen (a 1366x768 laptop included).
    resize(fitToScreen(this, sizeHint().expandedTo(QSize(72 * em, 44 * fontMetrics().height()))));
}

VerifyDialog::~VerifyDialog() = default; // the job (a child) cancels its run; nothing waits

void VerifyDialog::setTopicFilter(const QString &pattern)
{
    m_topics->setText(pattern);
}

QString VerifyDialog::summaryText() const
{
    return m_summary->text();
}

QString VerifyDialog::statusText() const
{
    return m_status->text();
}

QString VerifyDialog::sourceRecordText() const
{
    return m_sourceRecord->toPlainText();
}

QString VerifyDialog::targetRecordText() const
{
    return m_targetRecord->toPlainText();
}

QString VerifyDialog::differenceText() const
{
    return m_difference->text();
}

void VerifyDialog::start()
{
    if (m_job)
        return;
    m_model->clear();
    m_report = {};
    m_doneCount = 0;
    m_summary->clear();
    showDifference(-1);
    VerifyOptions options = m_options;
    options.topicFilter = m_topics->text().trimmed();
    m_job = new VerifyJob(m_spec, options, this);
    connect(m_job, &VerifyJob::progress, this, [this](const QString &topic, int partition, qint64 compared) {
        m_model->setProgress(topic, partition, compared);
        updateStatus();
    });
    connect(m_job, &VerifyJob::partitionDone, this, [this](const PartitionVerdict &v) {
        m_model->setVerdict(v);
        ++m_doneCount;
        updateStatus();
    });
    connect(m_job, &VerifyJob::finished, this, &VerifyDialog::finish);
    m_job->start();
    m_status->setText(tr("Connecting to both clusters\u2026"));
    updateButtons();
}

void VerifyDialog::cancel()
{
    // The job answers before cancel() returns (finish() runs), also while a
    // cluster that does not answer holds its run.
    if (m_job)
        m_job->cancel();
}

void VerifyDialog::finish(const VerifyReport &report)
{
    if (m_job) {
        m_job->deleteLater();
        m_job = nullptr;
    }
    m_report = report;
    m_model->cancelPending();
    QString text = report.summary();
    for (const QString &w : report.warnings)
        text += QStringLiteral("\nwarning: ") + w;
    m_summary->setText(text);
    m_summary->setStyleSheet(report.completed || report.cancelled ? QString() : kErrorStyle);
    if (report.cancelled && report.plannedPartitions == 0 && report.partitions.isEmpty())
        m_status->setText(tr("Cancelled before both clusters answered."));
    else if (report.cancelled)
        m_status->setText(
            tr("Cancelled after %1 of %2 partitions.").arg(report.partitions.size()).arg(report.plannedPartitions));
    else if (!report.completed)
        m_status->setText(tr("Could not compare: %1").arg(report.error));
    else
        m_status->setText(report.firstDifference() ? tr("Done: differences found; select a different partition to see "
                                                        "its first difference.")
                                                   : tr("Done: every partition matches."));
    updateButtons();
    Q_EMIT finished(report);
}

void VerifyDialog::updateStatus()
{
    // The partition being read is the last row without a verdict.
    for (int row = int(m_model->rows().size()) - 1; row >= 0; --row) {
        const VerifyTableModel::Row &r = m_model->rows()[row];
        if (!r.verdict) {
            m_status->setText(tr("%1 partitions done; comparing %2[%3]: %4 records")
                                  .arg(m_doneCount)
                                  .arg(r.sourceTopic)
                                  .arg(r.partition)
                                  .arg(QLocale(QLocale::English).toString(r.compared)));
            return;
        }
    }
    m_status->setText(tr("%1 partitions done").arg(m_doneCount));
}

void VerifyDialog::updateButtons()
{
    const bool running = m_job != nullptr;
    m_start->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_topics->setEnabled(!running);
    m_busyBar->setVisible(running);
}

void VerifyDialog::selectionChanged()
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    showDifference(rows.size() == 1 ? m_proxy->mapToSource(rows.first()).row() : -1);
}

void VerifyDialog::showDifference(int modelRow)
{
    const quint64 generation = ++m_generation;
    const VerifyTableModel::Row *row =
        modelRow >= 0 && modelRow < m_model->rows().size() ? &m_model->rows()[modelRow] : nullptr;
    const PartitionVerdict *v = row && row->verdict ? &*row->verdict : nullptr;
    m_sourceTitle->setText(tr("Source record"));
    m_targetTitle->setText(tr("Target record"));
    m_sourceRecord->clear();
    m_targetRecord->clear();
    m_difference->setStyleSheet(QString());
    if (!v || v->matches()) {
        m_difference->setText(v ? tr("%1: %2").arg(v->location(), VerifyTableModel::statusText(*row))
                                : tr("Select a different partition to see its first difference."));
        return;
    }
    m_difference->setText(tr("First difference in %1: %2").arg(v->location(), v->difference));
    m_difference->setStyleSheet(kErrorStyle);
    if (v->partition < 0)
        return; // a missing target topic: no records to show
    m_sourceTitle->setText(
        tr("Source %1 at offset %2")
            .arg(QStringLiteral("%1[%2]").arg(v->sourceTopic).arg(v->partition), offsetText(v->sourceOffset)));
    m_targetTitle->setText(
        tr("Target %1 at offset %2")
            .arg(QStringLiteral("%1[%2]").arg(v->targetTopic).arg(v->partition), offsetText(v->targetOffset)));
    m_sourceRecord->setPlainText(tr("reading\u2026"));
    m_targetRecord->setPlainText(tr("reading\u2026"));
    inBackground<DifferenceRecords>(
        this, [spec = m_spec, verdict = *v] { return readDifferenceRecords(spec, verdict, ReadTimeoutMs); },
        [this, generation, verdict = *v](const DifferenceRecords &records) {
            showRecords(generation, verdict, records);
        });
}

void VerifyDialog::showRecords(quint64 generation, const PartitionVerdict &verdict, const DifferenceRecords &records)
{
    if (generation != m_generation)
        return; // the selection moved on
    m_sourceRecord->setPlainText(recordText(records.source, verdict.sourceOffset, records.sourceError));
    m_targetRecord->setPlainText(recordText(records.target, verdict.targetOffset, records.targetError));
    Q_EMIT differenceShown();
}

} // namespace md
