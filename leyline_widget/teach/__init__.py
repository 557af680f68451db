"""Teaching the rules: events in words, scenarios, lessons, the course and memory reports."""

from .lessons import Lesson, LessonSession, Step
from .memory import memory_report
from .scenario import Scenario

__all__ = ["Lesson", "LessonSession", "Scenario", "Step", "memory_report"]
