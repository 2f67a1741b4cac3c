#include "model/tables/MessageTableModel.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStringDecoder>

namespace md {

namespace {

bool isUtf8(const QByteArray &bytes, QString *text)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    *text = decoder.decode(bytes);
    return !decoder.hasError();
}

QJsonValue jsonBytes(const std::optional<QByteArray> &bytes)
{
    if (!bytes)
        return QJsonValue(QJsonValue::Null);
    QString text;
    if (isUtf8(*bytes, &text))
        return text;
    return QJsonObject{{QStringLiteral("base64"), QString::fromLatin1(bytes->toBase64())}};
}

QString csvBytes(const std::optional<QByteArray> &bytes)
{
    if (!bytes)
        return {};
    QString text;
    if (!isUtf8(*bytes, &text))
        text = QStringLiteral("base64:") + QString::fromLatin1(bytes->toBase64());
    return text;
}

// Always quoted when not null, so an empty value ("") differs from null (nothing).
QString csvField(const std::optional<QString> &text)
{
    if (!text)
        return {};
    QString escaped = *text;
    escaped.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

QString timestampText(qint64 ms)
{
    if (ms < 0)
        return {};
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

// The decoded JSON as a value: wrapped in an array because QJsonDocument
// reads no bare scalars.
QJsonValue jsonValue(const QByteArray &json)
{
    const QJsonDocument doc = QJsonDocument::fromJson('[' + json + ']');
    return doc.isArray() && doc.array().size() == 1 ? doc.array().at(0) : QJsonValue(QString::fromUtf8(json));
}

QJsonObject decodedJson(const DecodedPart &part)
{
    QJsonObject o{{QStringLiteral("schemaId"), part.schemaId}};
    if (!part.subject.isEmpty()) {
        o.insert(QStringLiteral("subject"), part.subject);
        o.insert(QStringLiteral("version"), part.version);
    }
    if (!part.type.isEmpty())
        o.insert(QStringLiteral("type"), part.type);
    if (!part.message.isEmpty())
        o.insert(QStringLiteral("message"), part.message);
    if (part.status == DecodedPart::Status::Decoded)
        o.insert(QStringLiteral("value"), jsonValue(part.json));
    else
        o.insert(QStringLiteral("error"), part.error);
    return o;
}

bool writeAtomically(const QString &path, const QByteArray &data, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = path + QStringLiteral(": cannot write: ") + file.errorString();
        return false;
    }
    file.write(data);
    if (!file.commit()) {
        *error = path + QStringLiteral(": cannot write: ") + file.errorString();
        return false;
    }
    return true;
}

} // namespace

MessageTableModel::MessageTableModel(QObject *parent) : QAbstractTableModel(parent)
{
}

void MessageTableModel::setMessages(const QList<KafkaMessage> &messages)
{
    // A new query's answer: a reset is the honest signal.
    beginResetModel();
    m_messages = messages;
    endResetModel();
}

void MessageTableModel::appendMessages(const QList<KafkaMessage> &messages)
{
    if (messages.isEmpty())
        return;
    const int first = int(m_messages.size());
    beginInsertRows({}, first, first + int(messages.size()) - 1);
    m_messages.append(messages);
    endInsertRows();
}

const KafkaMessage *MessageTableModel::messageAt(int row) const
{
    return row >= 0 && row < m_messages.size() ? &m_messages.at(row) : nullptr;
}

void MessageTableModel::setDisplayMode(DisplayMode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    if (!m_messages.isEmpty())
        Q_EMIT dataChanged(index(0, Key), index(int(m_messages.size()) - 1, Headers));
}

QString MessageTableModel::render(const std::optional<QByteArray> &bytes, DisplayMode mode)
{
    if (!bytes)
        return QStringLiteral("(null)");
    switch (mode) {
    case DisplayMode::Hex: return QString::fromLatin1(bytes->toHex(' '));
    case DisplayMode::Decoded: // bytes without their decoding: as Json
    case DisplayMode::Json: {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &parseError);
        if (parseError.error == QJsonParseError::NoError && !doc.isNull())
            return QString::fromUtf8(doc.toJson(QJsonDocument::Indented)).trimmed();
        break;
    }
    case DisplayMode::Text: break;
    }
    return QString::fromUtf8(*bytes);
}

QString MessageTableModel::render(const std::optional<QByteArray> &bytes, const DecodedPart &part, DisplayMode mode)
{
    if (mode != DisplayMode::Decoded)
        return render(bytes, mode);
    switch (part.status) {
    case DecodedPart::Status::Decoded: return QString::fromUtf8(part.json);
    case DecodedPart::Status::Failed: return render(bytes, DisplayMode::Text);
    case DecodedPart::Status::Plain: break;
    }
    return render(bytes, DisplayMode::Json);
}

QString MessageTableModel::schemaLabel(const DecodedPart &part)
{
    if (part.status == DecodedPart::Status::Plain)
        return {};
    QStringList about;
    if (!part.type.isEmpty())
        about.append(part.type);
    if (!part.subject.isEmpty())
        about.append(QStringLiteral("%1 v%2").arg(part.subject).arg(part.version));
    if (!part.message.isEmpty())
        about.append(part.message);
    const QString id = QStringLiteral("schema %1").arg(part.schemaId);
    return about.isEmpty() ? id : id + QStringLiteral(" (") + about.join(QStringLiteral(", ")) + QLatin1Char(')');
}

QString MessageTableModel::describe(const KafkaMessage &m, DisplayMode mode)
{
    QString text = QStringLiteral("topic: %1\npartition: %2\noffset: %3\ntimestamp: %4 (%5)\n")
                       .arg(m.topic)
                       .arg(m.partition)
                       .arg(m.offset)
                       .arg(timestampText(m.timestampMs))
                       .arg(m.timestampMs);
    const DisplayMode headerMode = mode == DisplayMode::Decoded ? DisplayMode::Text : mode;
    // What the registry said about a part, on its own line, in every mode.
    auto about = [](const char *name, const DecodedPart &part) -> QString {
        if (part.status == DecodedPart::Status::Plain)
            return QString();
        QString line = QLatin1String(name) + QStringLiteral(" schema: ") + schemaLabel(part);
        if (part.status == DecodedPart::Status::Failed)
            line += QStringLiteral("; not decoded: ") + part.error;
        return line + QLatin1Char('\n');
    };
    text += QStringLiteral("key: ") + render(m.key, m.keyDecoded, mode) + QLatin1Char('\n');
    text += about("key", m.keyDecoded);
    for (const RecordHeader &h : m.headers)
        text += QStringLiteral("header ") + h.first + QStringLiteral(": ") + render(h.second, headerMode) +
                QLatin1Char('\n');
    text += QStringLiteral("value: ") + render(m.value, m.valueDecoded, mode) + QLatin1Char('\n');
    text += about("value", m.valueDecoded);
    return text;
}

QJsonObject MessageTableModel::toJson(const KafkaMessage &m)
{
    QJsonArray headers;
    for (const RecordHeader &h : m.headers)
        headers.append(QJsonObject{{QStringLiteral("key"), h.first}, {QStringLiteral("value"), jsonBytes(h.second)}});
    QJsonObject o{{QStringLiteral("topic"), m.topic},
                  {QStringLiteral("partition"), m.partition},
                  {QStringLiteral("offset"), m.offset},
                  {QStringLiteral("timestamp"), m.timestampMs},
                  {QStringLiteral("timestampIso"), timestampText(m.timestampMs)},
                  {QStringLiteral("key"), jsonBytes(m.key)},
                  {QStringLiteral("value"), jsonBytes(m.value)},
                  {QStringLiteral("headers"), headers}};
    if (m.keyDecoded.status != DecodedPart::Status::Plain)
        o.insert(QStringLiteral("keyDecoded"), decodedJson(m.keyDecoded));
    if (m.valueDecoded.status != DecodedPart::Status::Plain)
        o.insert(QStringLiteral("valueDecoded"), decodedJson(m.valueDecoded));
    return o;
}

QList<const KafkaMessage *> MessageTableModel::selected(const QList<int> &rows, QString *error) const
{
    QList<const KafkaMessage *> out;
    if (rows.isEmpty()) {
        for (const KafkaMessage &m : m_messages)
            out.append(&m);
        return out;
    }
    for (int r : rows) {
        const KafkaMessage *m = messageAt(r);
        if (!m) {
            *error = QStringLiteral("export: row %1 does not exist (%2 messages shown)").arg(r).arg(m_messages.size());
            return {};
        }
        out.append(m);
    }
    return out;
}

bool MessageTableModel::exportJson(const QString &path, QString *error, const QList<int> &rows) const
{
    QString selectError;
    const QList<const KafkaMessage *> list = selected(rows, &selectError);
    if (!selectError.isEmpty()) {
        *error = selectError;
        return false;
    }
    QJsonArray array;
    for (const KafkaMessage *m : list)
        array.append(toJson(*m));
    return writeAtomically(path, QJsonDocument(array).toJson(QJsonDocument::Indented), error);
}

bool MessageTableModel::exportCsv(const QString &path, QString *error, const QList<int> &rows, bool decoded) const
{
    QString selectError;
    const QList<const KafkaMessage *> list = selected(rows, &selectError);
    if (!selectError.isEmpty()) {
        *error = selectError;
        return false;
    }
    QString out =
        QStringLiteral("topic,partition,offset,timestamp,key,value,headers") +
        (decoded ? QStringLiteral(",keySchema,keyDecoded,valueSchema,valueDecoded\r\n") : QStringLiteral("\r\n"));
    // A part's schema (and why it did not decode) and its decoded JSON; nothing when Plain.
    auto decodedFields = [](const DecodedPart &part) -> QString {
        if (part.status == DecodedPart::Status::Plain)
            return QStringLiteral(",,");
        QString schema = schemaLabel(part);
        if (part.status == DecodedPart::Status::Failed)
            schema += QStringLiteral("; not decoded: ") + part.error;
        const std::optional<QString> json = part.status == DecodedPart::Status::Decoded
                                                ? std::optional<QString>(QString::fromUtf8(part.json))
                                                : std::nullopt;
        return QLatin1Char(',') + csvField(schema) + QLatin1Char(',') + csvField(json);
    };
    for (const KafkaMessage *m : list) {
        // Headers as one JSON array field: CSV has no nesting.
        QJsonArray headers;
        for (const RecordHeader &h : m->headers)
            headers.append(
                QJsonObject{{QStringLiteral("key"), h.first}, {QStringLiteral("value"), jsonBytes(h.second)}});
        auto opt = [](const std::optional<QByteArray> &b) -> std::optional<QString> {
            if (!b)
                return std::nullopt;
            return csvBytes(b);
        };
        out += csvField(m->topic) + QLatin1Char(',') + QString::number(m->partition) + QLatin1Char(',') +
               QString::number(m->offset) + QLatin1Char(',') + csvField(timestampText(m->timestampMs)) +
               QLatin1Char(',') + csvField(opt(m->key)) + QLatin1Char(',') + csvField(opt(m->value)) +
               QLatin1Char(',') + csvField(QString::fromUtf8(QJsonDocument(headers).toJson(QJsonDocument::Compact)));
        if (decoded)
            out += decodedFields(m->keyDecoded) + decodedFields(m->valueDecoded);
        out += QStringLiteral("\r\n");
    }
    return writeAtomically(path, out.toUtf8(), error);
}

int MessageTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_messages.size());
}

int MessageTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MessageTableModel::data(const QModelIndex &index, int role) const
{
    const KafkaMessage *m = index.isValid() ? messageAt(index.row()) : nullptr;
    if (!m)
        return {};
    const int col = index.column();
    if (role == RawRole) {
        if (col == Key)
            return m->key ? QVariant(*m->key) : QVariant();
        if (col == Value)
            return m->value ? QVariant(*m->value) : QVariant();
        return {};
    }
    if ((role == DecodeErrorRole || role == SchemaRole) && (col == Key || col == Value)) {
        const DecodedPart &part = col == Key ? m->keyDecoded : m->valueDecoded;
        return role == SchemaRole ? schemaLabel(part) : part.error;
    }
    if (role == Qt::ToolTipRole && m_mode == DisplayMode::Decoded && (col == Key || col == Value)) {
        // The reason a part did not decode, or which schema it decoded by, above what the cell shows.
        const DecodedPart &part = col == Key ? m->keyDecoded : m->valueDecoded;
        const QString shown = col == Key ? render(m->key, part, m_mode) : render(m->value, part, m_mode);
        if (part.status == DecodedPart::Status::Failed)
            return QString(tr("Not decoded: %1").arg(part.error) + QLatin1Char('\n') + shown);
        if (part.status == DecodedPart::Status::Decoded)
            return QString(schemaLabel(part) + QLatin1Char('\n') + shown);
        return shown;
    }
    if (role == SortRole) {
        switch (col) {
        case Partition: return m->partition;
        case Offset: return m->offset;
        case Timestamp: return m->timestampMs;
        default: break;
        }
    }
    if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole) {
        switch (col) {
        case Partition: return m->partition;
        case Offset: return m->offset;
        case Timestamp: return timestampText(m->timestampMs);
        case Key: return render(m->key, m->keyDecoded, m_mode);
        case Value: return render(m->value, m->valueDecoded, m_mode);
        case Headers: {
            const DisplayMode mode = m_mode == DisplayMode::Decoded ? DisplayMode::Text : m_mode;
            QStringList parts;
            for (const RecordHeader &h : m->headers)
                parts.append(h.first + QLatin1Char('=') + render(h.second, mode));
            return parts.join(QStringLiteral(", "));
        }
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole && (col == Partition || col == Offset))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant MessageTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Partition: return tr("Partition");
    case Offset: return tr("Offset");
    case Timestamp: return tr("Timestamp");
    case Key: return tr("Key");
    case Value: return tr("Value");
    case Headers: return tr("Headers");
    default: return {};
    }
}

} // namespace md
