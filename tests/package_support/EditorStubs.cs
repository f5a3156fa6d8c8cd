// Signatures of the Unity, UdonSharp and VRChat editor APIs that the package's editor script
// (Editor/ShaderceptionSetup.cs) calls, for a compile check with mono's mcs. Bodies are empty:
// this checks that the script is valid C# against the real API shapes, nothing more.
using System;
using System.Collections.Generic;

namespace UnityEngine
{
    public class Object
    {
        public string name;
        public static T Instantiate<T>(T original, Transform parent) where T : Object { return original; }
        public static implicit operator bool(Object o) { return !ReferenceEquals(o, null); }
        public static Object FindObjectOfType(Type t) { return null; }
    }
    public class Component : Object
    {
        public GameObject gameObject;
        public Transform transform;
        public T GetComponent<T>() { return default(T); }
        public Component GetComponent(Type t) { return null; }
        public T GetComponentInChildren<T>() { return default(T); }
        public T[] GetComponentsInChildren<T>(bool includeInactive) { return new T[0]; }
    }
    public class Behaviour : Component { public bool enabled; }
    public class MonoBehaviour : Behaviour { }
    public class Transform : Component
    {
        public Transform parent;
        public Transform Find(string n) { return null; }
        public void SetParent(Transform p, bool worldPositionStays) { }
    }
    public struct Vector2 { public float x, y; public Vector2(float x, float y) { this.x = x; this.y = y; } }
    public struct Vector3
    {
        public float x, y, z;
        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
        public static Vector3 zero { get { return new Vector3(0, 0, 0); } }
    }
    public struct Bounds { public Bounds(Vector3 center, Vector3 size) { } }
    public class RectTransform : Transform { public Vector2 anchoredPosition; public Vector2 sizeDelta; }
    public class GameObject : Object
    {
        public GameObject(string name) { }
        public Transform transform;
        public SceneManagement.Scene scene;
        public Component[] GetComponents(Type t) { return null; }
        public T[] GetComponents<T>() { return null; }
        public Component GetComponent(Type t) { return null; }
        public T GetComponent<T>() { return default(T); }
        public Component GetComponentInChildren(Type t, bool includeInactive) { return null; }
        public bool activeSelf;
        public void SetActive(bool value) { }
    }
    public class Shader : Object { public static Shader Find(string n) { return null; } }
    public class Texture : Object { }
    public class RenderTexture : Texture { }
    public class CustomRenderTexture : RenderTexture { public Material material; }
    public class Material : Object
    {
        public Shader shader;
        public Texture mainTexture;
        public bool HasProperty(string name) { return false; }
        public Texture GetTexture(string name) { return null; }
        public void SetTexture(string name, Texture value) { }
        public void SetInt(string name, int value) { }
        public float GetFloat(string name) { return 0f; }
        public void SetFloat(string name, float value) { }
        public string[] GetTexturePropertyNames() { return new string[0]; }
    }
    public class Camera : Behaviour { public RenderTexture targetTexture; }
    public class AudioSource : Behaviour { }
    public class TextAsset : Object { public string text; }
    public class Renderer : Component { public Material sharedMaterial; public Material[] sharedMaterials; public bool enabled; }
    public class MeshRenderer : Renderer { }
    public class Mesh : Object
    {
        public int vertexCount { get { return 0; } }
        public UnityEngine.Rendering.IndexFormat indexFormat { get; set; }
        public Vector3[] vertices { get; set; }
        public Vector3[] normals { get; set; }
        public Vector2[] uv { get; set; }
        public Bounds bounds { get; set; }
        public void Clear() { }
        public void SetTriangles(int[] triangles, int submesh, bool calculateBounds) { }
    }
    public class MeshFilter : Component { public Mesh sharedMesh { get; set; } }
    public static class Debug
    {
        public static void Log(object m) { }
        public static void Log(object m, Object context) { }
        public static void LogWarning(object m, Object context) { }
        public static void LogError(object m) { }
        public static void LogError(object m, Object context) { }
    }
}

namespace UnityEngine.Rendering
{
    public enum IndexFormat { UInt16 = 0, UInt32 = 1 }
}

namespace UnityEngine.SceneManagement
{
    public struct Scene { public UnityEngine.GameObject[] GetRootGameObjects() { return null; } }
    public class SceneManager { public static Scene GetActiveScene() { return default(Scene); } }
}

namespace UnityEngine.Events
{
    public delegate void UnityAction<T0>(T0 arg0);
    public abstract class UnityEventBase { public int GetPersistentEventCount() { return 0; } }
    public class UnityEvent : UnityEventBase { }
    public abstract class UnityEvent<T0> : UnityEventBase { }
}

namespace UnityEngine.UI
{
    public class InputField : UnityEngine.MonoBehaviour { public string text; }
    public class Text : UnityEngine.MonoBehaviour { public string text; }
    public class Button : UnityEngine.MonoBehaviour
    {
        public class ButtonClickedEvent : UnityEngine.Events.UnityEvent { }
        public ButtonClickedEvent onClick;
    }
    public class Toggle : UnityEngine.MonoBehaviour
    {
        public class ToggleEvent : UnityEngine.Events.UnityEvent<bool> { }
        public ToggleEvent onValueChanged;
        public bool isOn;
        public void SetIsOnWithoutNotify(bool value) { }
    }
    public class Slider : UnityEngine.MonoBehaviour
    {
        public class SliderEvent : UnityEngine.Events.UnityEvent<float> { }
        public SliderEvent onValueChanged;
        public float value;
    }
}

namespace UnityEditor
{
    using UnityEngine;

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
    public sealed class MenuItem : Attribute
    {
        public MenuItem(string itemName) { }
        public MenuItem(string itemName, bool isValidateFunction, int priority) { }
    }
    public static class EditorUtility
    {
        public static bool DisplayDialog(string title, string message, string ok) { return true; }
        public static void SetDirty(Object target) { }
        public static void CopySerialized(Object source, Object dest) { }
    }
    public static class AssetDatabase
    {
        public static string GUIDToAssetPath(string guid) { return null; }
        public static string AssetPathToGUID(string path) { return null; }
        public static T LoadAssetAtPath<T>(string path) where T : Object { return null; }
        public static string GetAssetPath(Object o) { return null; }
        public static void ImportAsset(string path) { }
        public static void SaveAssetIfDirty(Object o) { }
        public static bool CopyAsset(string path, string newPath) { return false; }
        public static bool IsValidFolder(string path) { return false; }
        public static string CreateFolder(string parentFolder, string newFolderName) { return ""; }
        public static void SaveAssets() { }
    }
    [AttributeUsage(AttributeTargets.Class)]
    public sealed class InitializeOnLoadAttribute : Attribute { }
    public static class EditorApplication
    {
        public delegate void CallbackFunction();
        public static CallbackFunction delayCall;
    }
    public class AssetPostprocessor { }
    public enum PrefabUnpackMode { OutermostRoot, Completely }
    public enum InteractionMode { AutomatedAction, UserAction }
    public static class PrefabUtility
    {
        public static Object InstantiatePrefab(Object asset) { return null; }
        public static bool IsPartOfPrefabInstance(Object o) { return false; }
        public static GameObject GetOutermostPrefabInstanceRoot(Object o) { return null; }
        public static void UnpackPrefabInstance(GameObject root, PrefabUnpackMode m, InteractionMode a) { }
    }
    public static class Undo
    {
        public static void RegisterCreatedObjectUndo(Object o, string name) { }
        public static void RecordObject(Object o, string name) { }
        public static void DestroyObjectImmediate(Object o) { }
        public static Component AddComponent(GameObject g, Type t) { return null; }
        public static T AddComponent<T>(GameObject g) where T : Component { return null; }
    }
    public enum SerializedPropertyType { Generic = -1, Integer = 0, Boolean = 1, Float = 2, String = 3, ObjectReference = 5 }
    public class SerializedProperty
    {
        public string name;
        public SerializedPropertyType propertyType;
        public Object objectReferenceValue;
        public string stringValue;
        public bool boolValue;
        public int intValue;
        public int arraySize;
        public bool NextVisible(bool enterChildren) { return false; }
        public SerializedProperty GetArrayElementAtIndex(int index) { return this; }
    }
    public class SerializedObject
    {
        public SerializedObject(Object obj) { }
        public SerializedProperty FindProperty(string path) { return null; }
        public SerializedProperty GetIterator() { return null; }
        public bool ApplyModifiedProperties() { return true; }
    }
    public static class Selection { public static GameObject activeGameObject; public static Object activeObject; }
    public static class TypeCache
    {
        public struct TypeCollection : IEnumerable<Type>
        {
            public IEnumerator<Type> GetEnumerator() { yield break; }
            System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() { yield break; }
        }
        public static TypeCollection GetTypesDerivedFrom<T>() { return default(TypeCollection); }
    }
}

namespace UnityEditor.SceneManagement
{
    public sealed class EditorSceneManager : UnityEngine.SceneManagement.SceneManager
    {
        public static bool MarkSceneDirty(UnityEngine.SceneManagement.Scene s) { return true; }
    }
}

namespace UnityEditor.Events
{
    using UnityEngine.Events;

    public static class UnityEventTools
    {
        public static void RemovePersistentListener(UnityEventBase e, int index) { }
        public static void AddStringPersistentListener(UnityEventBase e, UnityAction<string> call, string argument) { }
        public static void AddPersistentListener<T0>(UnityEvent<T0> e, UnityAction<T0> call) { }
    }
}

namespace VRC.SDKBase
{
    // The one stub with a body: the setup-code test reads the URLs back.
    public class VRCUrl
    {
        private readonly string url;
        public VRCUrl(string url) { this.url = url; }
        public string Get() { return url; }
    }
}

namespace VRC.SDK3.Components
{
    public class VRCUrlInputField : UnityEngine.MonoBehaviour
    {
        public class SubmitEvent : UnityEngine.Events.UnityEvent<string> { }
        public SubmitEvent onEndEdit;
    }
}

namespace VRC.Udon
{
    public class AbstractUdonProgramSource : UnityEngine.Object { }
    public class UdonBehaviour : UnityEngine.MonoBehaviour
    {
        public AbstractUdonProgramSource programSource;
        public void SendCustomEvent(string eventName) { }
    }
}

namespace UdonSharp
{
    public abstract class UdonSharpBehaviour : UnityEngine.MonoBehaviour { }
}

namespace UdonSharpEditor
{
    using UdonSharp;
    using VRC.Udon;

    public static class UdonSharpEditorUtility
    {
        public static UdonBehaviour GetBackingUdonBehaviour(UdonSharpBehaviour b) { return null; }
        public static UdonSharpBehaviour GetProxyBehaviour(UdonBehaviour u) { return null; }
        public static void CopyProxyToUdon(UdonSharpBehaviour proxy) { }
    }
    public static class UdonSharpUndo
    {
        public static UdonSharpBehaviour AddComponent(UnityEngine.GameObject g, Type t) { return null; }
        public static void DestroyImmediate(UdonSharpBehaviour b) { }
    }
}
